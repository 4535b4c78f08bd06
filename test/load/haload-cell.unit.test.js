'use strict';
// haload as a cell's own generator: its figures as the k6 summary the reducer reads (no
// percentiles, since haload prints means only), and a run that reused connections refused.
const { haloadSummary, notClose } = require('../../lib/load/haload-cell');
const { reduceSummaries } = require('../../lib/results-model/reduce');

const meta = { generator: 'haload', cell: 'passthrough:1k:close:resumed', protocol: 'h1', vus: 32 };
const figures = (over = {}) => ({
  requests: 9000,
  connections: 9000,
  errors: 0,
  statuses: { '1xx': 0, '2xx': 9000, '3xx': 0, '4xx': 0, '5xx': 0 },
  meanTtfbMs: 1.2,
  meanTtlbMs: 1.3,
  ...over,
});

test('its figures read like a sample of k6: rates, protocol, VUs, and no latency percentiles', () => {
  const cell = reduceSummaries([haloadSummary(figures(), meta, 3)], { combine: 'sequential' });
  expect(cell).toMatchObject({
    requests: 9000,
    okRps: 3000,
    errorRate: 0,
    protocols: { 'HTTP/1.1': 9000 },
    p50: null,
    p99: null,
    latencyBasis: expect.stringMatching(/^haload prints mean times only/),
  });
  expect(cell.load.vusMax).toBe(32);
});

test('failed connections count as status 0 and other status classes by their class, as errors', () => {
  const statuses = { '1xx': 0, '2xx': 8900, '3xx': 0, '4xx': 0, '5xx': 100 };
  const cell = reduceSummaries([haloadSummary(figures({ requests: 9000, errors: 50, statuses }), meta, 3)], {
    combine: 'sequential',
  });
  expect(cell.errors).toEqual({ 0: 50, '5xx': 100 });
  expect(cell.requests).toBe(9050);
  expect(cell.okRps).toBe(2966.7); // 8,900 successful responses in 3 s
});

test('a run that did not open a connection per request did not measure a close cell', () => {
  expect(notClose(figures())).toBeNull();
  expect(notClose(figures({ connections: 40 }))).toBe(
    'haload opened 40 connections for 9000 requests, not one per request',
  );
});
