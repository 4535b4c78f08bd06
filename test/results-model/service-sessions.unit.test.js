'use strict';
// Passthrough's session evidence, read at the service (the router passes its TLS on unopened):
// the instances' /metrics series, the sessions over a sample, their sum over a cell and the
// verdict on its claim. Pure, with made-up readings.
const { sumByLabel } = require('../../lib/lab/common/metrics-text');
const { sessionsBetween, withServiceSessions } = require('../../lib/load/service-sessions');
const { cellSummary } = require('../../lib/load/wrk');
const { buildCellResult } = require('../../lib/results-model/cell');
const { sessionVerdict } = require('../../lib/results-model/verdicts');
const { QUANTILES } = require('../../k6/lib/distribution');

test("the instances' series summed by its session label; other series and unlabelled lines left out", () => {
  const text = [
    '# TYPE data_service_tls_sessions_total counter',
    'data_service_tls_sessions_total{session="new"} 3',
    'data_service_tls_sessions_total{session="resumed"} 40',
    'data_service_tls_sessions_total{pod="b",session="resumed"} 2',
    'data_service_tls_sessions_total 7',
    'http_requests_total{session="new"} 99',
  ].join('\n');
  expect(sumByLabel(text, 'data_service_tls_sessions_total', 'session')).toEqual({ new: 3, resumed: 42 });
});

test('the sessions between two readings, summed over the instances; an instance whose count went down is named', () => {
  const first = { 'data-service-1': { new: 2, resumed: 10 }, 'data-service-2': { new: 0, resumed: 0 } };
  expect(
    sessionsBetween(first, {
      'data-service-1': { new: 3, resumed: 60 },
      'data-service-2': { new: 0, resumed: 49 },
    }),
  ).toEqual({ new: 1, resumed: 99, reusePct: 99 });
  expect(sessionsBetween(first, first)).toEqual({ new: 0, resumed: 0, reusePct: null });
  // One instance restarted (its count from 0) while the other grew more: the sum alone would hide it.
  expect(
    sessionsBetween(first, {
      'data-service-1': { new: 1, resumed: 0 },
      'data-service-2': { new: 5, resumed: 500 },
    }),
  ).toEqual({ error: 'data-service-1 restarted during the sample' });
});

test("read when the sample starts and when it stops, beside the router's counters; a failed read is named", async () => {
  const readings = [{ a: { new: 1, resumed: 5 } }, { a: { new: 4, resumed: 50 } }];
  const router = { start: () => ({ stop: async () => {}, result: () => ({ readings: 6 }) }) };
  const counting = withServiceSessions(router, async () => readings.shift()).start();
  await counting.stop();
  expect(counting.result()).toEqual({
    readings: 6,
    serviceSessions: { new: 3, resumed: 45, reusePct: 93.8 },
  });
  const failing = withServiceSessions(null, async () => {
    throw new Error("data-service-2's /metrics answered 503");
  }).start();
  await failing.stop();
  expect(failing.result()).toEqual({ serviceSessions: { error: "data-service-2's /metrics answered 503" } });
});

describe('the verdict on a passthrough close cell, from the service’s sessions', () => {
  const meta = {
    script: 'haload-cell',
    generator: 'haload',
    cell: 'passthrough:1k:close:resumed',
    termination: 'passthrough',
    pageSize: 1024,
    connection: 'close',
    tlsSession: 'resumed',
    vus: 32,
  };
  const percentiles = Object.fromEntries(QUANTILES.map((q) => [String(q), 1000]));
  const figures = {
    durationUs: 10e6,
    requests: 9000,
    errors: { connect: 0, read: 0, write: 0, timeout: 0 },
    statuses: { 200: 9000 },
    wrongSize: 0,
    latencyUs: { min: 500, max: 9000, mean: 1600, percentiles },
  };
  const cell = {
    name: meta.cell,
    termination: 'passthrough',
    pageSize: 1024,
    connection: 'close',
    tlsSession: 'resumed',
  };
  const built = (...serviceSessions) =>
    buildCellResult(
      cell,
      serviceSessions.map((s) => ({
        summary: cellSummary(figures, meta),
        counters: { readings: 0, serviceSessions: s },
      })),
    );

  test('resumed as claimed: the samples summed, at least 90 % resumed', () => {
    const c = built({ new: 10, resumed: 4000, reusePct: 99.8 }, { new: 20, resumed: 3970, reusePct: 99.5 });
    expect(c.backend.tlsSessions).toEqual({ new: 30, resumed: 7970, reusePct: 99.6, samples: 2 });
    expect(sessionVerdict(c)).toMatchObject({
      claim: 'resumed',
      reusePct: 99.6,
      holds: true,
      text: "the service resumed 99.6 % of TLS sessions (30 new, 7970 resumed; 100 % of those after each client's first): resumed as claimed",
    });
  });

  test("resumed is judged after each client's first handshake: a short sample on a busy host holds", () => {
    // 32 clients, 446 handshakes: 89.9 % resumed in all, 96.9 % of those after each client's first.
    const c = built({ new: 45, resumed: 401, reusePct: 89.9 });
    expect(sessionVerdict(c)).toMatchObject({ holds: true, reusePct: 89.9 });
    expect(sessionVerdict(c).text).toContain("96.9 % of those after each client's first");
    // More new ones than clients is a session that did not resume, and counts against the claim.
    expect(sessionVerdict(built({ new: 90, resumed: 401, reusePct: 81.7 }))).toMatchObject({ holds: false });
  });

  test('a ticket that decrypts on one instance only: half resumed, NOT as claimed', () => {
    const c = built({ new: 2000, resumed: 2000, reusePct: 50 });
    expect(sessionVerdict(c)).toMatchObject({ holds: false });
    expect(sessionVerdict(c).text).toMatch(
      /^NOT resumed as claimed: the service resumed 50 % .*at least 90 % was expected$/,
    );
  });

  test('a sample not read is left out, and said', () => {
    const c = built(
      { new: 10, resumed: 4000, reusePct: 99.8 },
      { error: 'data-service-1 restarted during the sample' },
    );
    expect(c.backend.tlsSessions).toMatchObject({
      samples: 1,
      error: '1 sample(s) not read: data-service-1 restarted during the sample',
    });
    expect(sessionVerdict(c)).toMatchObject({ holds: true });
    expect(sessionVerdict(c).text).toMatch(
      /\(10 new, 4000 resumed; 100 % of those after each client's first; 1 sample\(s\) not read: data-service-1 restarted/,
    );
  });

  test('unread sessions leave the claim unchecked, saying why', () => {
    expect(sessionVerdict(built({ error: "data-service-1's /metrics answered 404" }))).toMatchObject({
      holds: null,
      text: "not checked: passthrough TLS ends at the service, and data-service-1's /metrics answered 404",
    });
    expect(
      sessionVerdict(buildCellResult(cell, [{ summary: cellSummary(figures, meta), counters: null }])).text,
    ).toBe('not checked: passthrough TLS ends at the service, and its sessions were not read');
  });
});
