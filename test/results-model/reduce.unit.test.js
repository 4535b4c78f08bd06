'use strict';
// The one reducer from k6 summaries to a cell's figures, in both ways summaries combine: samples
// of the lab matrix one after another (time adds up) and runners of the cluster side by side
// (rates add up). Same keys, same latency fields and error keys either way.
const { reduceSummaries, cellOfSummary } = require('../../lib/results-model/reduce');
const { trendOf } = require('../support/k6-trend');

/** A router-matrix.js summary of `requests` requests over `seconds`, `failed502` of them 502s. */
function summary({ requests, seconds, failed502 = 0, latency = 2, vus = 16, iterationMs = 4 }) {
  const ok = requests - failed502;
  const latencies = Array.from({ length: ok }, (_, i) => latency + (i % 10) / 10);
  const metrics = {
    http_reqs: { values: { count: requests, rate: requests / seconds } },
    iterations: { values: { count: requests, rate: requests / seconds } },
    iteration_duration: { values: { ...trendOf([iterationMs]), avg: iterationMs } },
    vus: { values: { value: vus, min: vus, max: vus } },
    request_total: { values: trendOf(latencies) },
    service_time: { values: trendOf(latencies.map(() => 0.5)) },
    router_time: { values: trendOf(latencies.map((v) => v - 0.5)) },
    tls_handshake: { values: trendOf([10, 12]) },
    errors_status_502: { values: { count: failed502 } },
    // res.proto per response (k6/lib/protocols.js): every one HTTP/1.1 unless the router offered h2.
    protocol_http_1_1: { values: { count: requests } },
    protocol_http_2_0: { values: { count: 0 } },
  };
  return { state: { testRunDurationMs: seconds * 1000 }, metrics };
}

const a = summary({ requests: 1000, seconds: 10 });
const b = summary({ requests: 3000, seconds: 20, failed502: 30, latency: 5 });

describe('sequential: samples of one cell, one after another', () => {
  const cell = reduceSummaries([a, b], { combine: 'sequential' });

  test('time adds up and a rate is requests over the summed time', () => {
    expect(cell).toMatchObject({ samples: 2, combine: 'sequential', seconds: 30, requests: 4000 });
    expect(cell.rps).toBeCloseTo(4000 / 30, 1);
    expect(cell.okRps).toBeCloseTo(3970 / 30, 1);
    expect(cell.rpsPerSample).toEqual([100, 150]);
    // VU figures are the largest sample's: the samples never ran at once.
    expect(cell.load).toEqual({ droppedIterations: 0, vusMax: 16, busyVus: 0.6 });
  });
});

describe('concurrent: runners of one TestRun, side by side', () => {
  const cell = reduceSummaries([a, b], { combine: 'concurrent' });

  test('the run lasts as long as its longest runner and rates add up', () => {
    expect(cell).toMatchObject({ samples: 2, combine: 'concurrent', seconds: 20, requests: 4000 });
    expect(cell.rps).toBe(100 + 150);
    expect(cell.okRps).toBe(100 + 148.5);
    expect(cell.rpsPerSample).toEqual([100, 150]);
    // Each runner drove its share of the VUs: they add up.
    expect(cell.load).toEqual({ droppedIterations: 0, vusMax: 32, busyVus: 1 });
  });
});

describe('the same figures either way', () => {
  const sequential = reduceSummaries([a, b], { combine: 'sequential' });
  const concurrent = reduceSummaries([a, b], { combine: 'concurrent' });
  const COMBINED = ['combine', 'seconds', 'rps', 'okRps', 'load'];
  const rateless = (cell) =>
    Object.fromEntries(Object.entries(cell).filter(([key]) => !COMBINED.includes(key)));

  test('keys, errors, latency and its decomposition do not depend on how summaries combine', () => {
    expect(Object.keys(concurrent)).toEqual(Object.keys(sequential));
    expect(rateless(concurrent)).toEqual(rateless(sequential));
    expect(sequential.errors).toEqual({ 502: 30 });
    expect(sequential.protocols).toEqual({ 'HTTP/1.1': 4000 });
    expect(sequential.errorRate).toBeCloseTo(30 / 4000, 6);
    // Latency of successful responses, merged: 1000 at 2.0-2.9 ms and 2970 at 5.0-5.9 ms.
    expect(sequential.p50).toBeGreaterThan(5);
    expect(sequential.p99).toBeLessThan(6);
    expect(sequential.decomposition.routerMs.count).toBe(3970);
    expect(sequential.serviceTimeMs.p50).toBeCloseTo(0.5, 3);
    expect(sequential.tlsHandshakes).toBe(4);
    expect(sequential.tlsHandshakeMs).toBe(11);
  });

  test('an unknown combine mode is refused', () => {
    expect(() => reduceSummaries([a], { combine: 'parallel' })).toThrow(
      'combine must be one of sequential, concurrent',
    );
  });
});

describe('the cell a summary names', () => {
  const meta = {
    cell: 'edge:4k:close:full',
    termination: 'edge',
    pageSize: 4096,
    connection: 'close',
    tlsSession: 'full',
  };

  test('read through the vocabulary (k6/lib/cells.js)', () => {
    expect(cellOfSummary({ meta }, 'r.json')).toEqual({
      name: 'edge:4k:close:full',
      termination: 'edge',
      pageSize: 4096,
      connection: 'close',
      tlsSession: 'full',
      // A summary from before the protocol axis: its default.
      protocol: 'h1',
    });
    expect(() => cellOfSummary({ meta: { ...meta, tlsSession: undefined } }, 'r.json')).toThrow(
      /r\.json: meta does not name a cell: .*ends in :full or :resumed/,
    );
    expect(() => cellOfSummary({ meta: { ...meta, termination: 'tls' } }, 'r.json')).toThrow(
      /r\.json: meta does not name a cell: .*termination must be one of/,
    );
    expect(() => cellOfSummary({ meta: { ...meta, cell: 'edge:1k:close' } }, 'r.json')).toThrow(
      "r.json: meta.cell 'edge:1k:close' is not edge:4k:close",
    );
  });
});

test('a sample without one successful response has no latency, and the cell still reduces', () => {
  const none = summary({ requests: 50, seconds: 5, failed502: 50 });
  const cell = reduceSummaries([none, a], { combine: 'sequential' });
  expect(cell.p99PerSample).toEqual([null, expect.any(Number)]);
  expect(cell.errors).toEqual({ 502: 50 });
});
