'use strict';
// wrk's figures in the matrix's sample format, and the router's counters summarised per sample:
// pure conversions, with made-up figures.
const { cellSummary } = require('../../lib/load/wrk');
const { summarizeReadings } = require('../../lib/load/router-counters');
const { reduceSummaries, sampleCounts } = require('../../lib/results-model/reduce');
const { buildCellResult } = require('../../lib/results-model/cell');
const { sessionVerdict } = require('../../lib/results-model/verdicts');
const { QUANTILES } = require('../../k6/lib/distribution');

const meta = {
  script: 'wrk-cell',
  generator: 'wrk',
  cell: 'edge:1k:close:resumed',
  termination: 'edge',
  pageSize: 1024,
  connection: 'close',
  tlsSession: 'resumed',
  executor: 'connections',
  vus: 32,
  maxVus: 32,
};

/** The cell of meta. */
const cell = {
  name: meta.cell,
  termination: 'edge',
  pageSize: 1024,
  connection: 'close',
  tlsSession: 'resumed',
};

/** A sample of the cell: wrk's figures (measured()), and the router's `counters`. */
const sample = (counters) => ({ summary: cellSummary(measured(), meta), counters });

/** What wrk-cell.lua writes: 10 s, 9000 answers (10 of them 503), 5 read errors, 2 wrong sizes. */
function measured() {
  const percentiles = Object.fromEntries(QUANTILES.map((q) => [String(q), 1000 + q * 10]));
  return {
    durationUs: 10e6,
    requests: 9000,
    errors: { connect: 0, read: 5, write: 0, timeout: 0 },
    statuses: { 200: 8988, 503: 10 },
    wrongSize: 2,
    latencyUs: { min: 500, max: 9000, mean: 1600, percentiles },
  };
}

test('wrk’s counts become the reducer’s: requests, errors by status (0 for sockets), latency in ms', () => {
  const summary = cellSummary(measured(), meta);
  const figures = reduceSummaries([summary], { combine: 'sequential' });
  expect(figures).toMatchObject({
    requests: 9005,
    rps: 900.5,
    okRps: 898.8,
    errors: { 0: 5, 503: 10, wrongSize: 2 },
    p50: 1.5,
    latencyBasis: expect.stringMatching(/^wrk: .*connection set-up .* is not included/),
    tlsHandshakes: 0,
    serviceTimeMs: null,
    protocols: { 'HTTP/1.1': 9000 },
  });
  expect(figures.p99).toBeCloseTo(1.99, 2);
  // The cost denominators: successful answers, and no full handshake seen by the client.
  expect(sampleCounts(summary)).toEqual({ ok: 8988, handshakes: 0 });
});

test('the router’s readings: medians of the rates, reuse only where there were TLS sessions, largest queue', () => {
  const reading = (over) => ({
    fullHandshakesPerSec: 0,
    backendFullHandshakesPerSec: 0,
    tlsSessionsPerSec: 1000,
    reusePct: 100,
    sessionsPerSec: 2000,
    currentConnections: 60,
    queued: 0,
    streamTotals: { received: { h1: 10, h2: 0 }, sent: { h1: 10, h2: 0 } },
    ...over,
  });
  const summary = summarizeReadings([
    // The generator starting: an idle second has no reuse share, not a share of 0.
    reading({ tlsSessionsPerSec: 0, reusePct: 0, sessionsPerSec: 0, currentConnections: 0 }),
    reading({ queued: 3 }),
    reading({ reusePct: 98 }),
    // Streams: counted from the first reading to the last.
    reading({ streamTotals: { received: { h1: 10, h2: 400 }, sent: { h1: 410, h2: 0 } } }),
  ]);
  expect(summary).toEqual({
    readings: 4,
    fullHandshakesPerSec: 0,
    backendFullHandshakesPerSec: 0,
    tlsSessionsPerSec: 1000,
    reusePct: 100,
    sessionsPerSec: 2000,
    currentConnections: { median: 60, max: 60 },
    queued: { median: 0, max: 3 },
    streams: { received: { h1: 0, h2: 400 }, sent: { h1: 400, h2: 0 } },
    handshakes: null,
  });
  expect(summarizeReadings([])).toBeNull();
  // A reload between the first reading and the last: the new HAProxy counts from 0, no stream figures.
  const reloaded = { received: { h1: 0, h2: 3 }, sent: { h1: 3, h2: 0 } };
  expect(summarizeReadings([reading({}), reading({ streamTotals: reloaded })]).streams).toBeNull();
  // A build without the stream columns: no stream figures, the rest as before.
  expect(summarizeReadings([reading({ streamTotals: null }), reading({})]).streams).toBeNull();
});

test('handshakes count from the baseline reading, whose rates (the second before) stay out of the medians', () => {
  const reading = (at, full, resumed, over = {}) => ({
    at,
    pid: 7,
    tlsTotals: { full, resumed },
    fullHandshakesPerSec: 0,
    backendFullHandshakesPerSec: 0,
    tlsSessionsPerSec: 100,
    reusePct: 95,
    sessionsPerSec: 100,
    currentConnections: 32,
    queued: 0,
    ...over,
  });
  const summary = summarizeReadings([
    { ...reading(0, 1000, 5000, { sessionsPerSec: 9999 }), baseline: true },
    reading(500, 1032, 5100),
    reading(2000, 1040, 5400),
  ]);
  expect(summary).toMatchObject({ readings: 2, sessionsPerSec: 100, handshakes: { full: 40, resumed: 400 } });
  expect(summary.fullHandshakesPerSec).toBe(20);
  // A baseline alone is no reading; a reload between the readings, no count.
  expect(summarizeReadings([{ ...reading(0, 0, 0), baseline: true }])).toBeNull();
  expect(
    summarizeReadings([reading(0, 1000, 5000), { ...reading(500, 3, 10), pid: 8 }]).handshakes,
  ).toBeNull();
});

test('a resumed claim on the router is judged after each client’s first handshake, summed over the samples', () => {
  const counters = (full, resumed, reusePct) => ({
    readings: 4,
    failedReadings: 0,
    handshakes: { full, resumed },
    fullHandshakesPerSec: 5,
    backendFullHandshakesPerSec: 0,
    tlsSessionsPerSec: 50,
    reusePct,
    sessionsPerSec: 50,
    currentConnections: { median: 32, max: 32 },
    queued: { median: 0, max: 0 },
  });
  // 32 clients × 2 samples: 64 firsts of 70 full handshakes; 6 of 406 after them were full.
  const built = buildCellResult(cell, [sample(counters(36, 200, 84.7)), sample(counters(34, 200, 85.5))]);
  expect(built.router.counters.handshakes).toEqual({ full: 70, resumed: 400, samples: 2 });
  const verdict = sessionVerdict(built);
  expect(verdict).toMatchObject({ holds: true, reusePct: 85.1 });
  expect(verdict.text).toContain("98.5 % of those after each client's first");
  // Full handshakes beyond the firsts: not resumed, whatever the firsts explain.
  const broken = buildCellResult(cell, [sample(counters(132, 200, 60.2)), sample(counters(132, 200, 60.2))]);
  expect(sessionVerdict(broken)).toMatchObject({ holds: false });
  expect(sessionVerdict(broken).text).toMatch(/^NOT resumed as claimed: .*; 66.7 % of those after/);
  // results.json before the counts: judged on the share, as it was.
  const old = { ...counters(36, 200, 84.7), handshakes: undefined };
  expect(sessionVerdict(buildCellResult(cell, [sample(old)]))).toMatchObject({
    holds: false,
    reusePct: 84.7,
  });
});

test('a cell whose samples read none of the router’s counters keeps why, and its session check says it', () => {
  const refused = { readings: 0, failedReadings: 4, error: 'connect ECONNREFUSED /run/haproxy.sock' };
  const failed = buildCellResult(cell, [
    sample({ readings: 0, failedReadings: 3, error: 'timeout' }),
    sample(refused),
  ]);
  expect(failed.router.counters).toBeNull();
  expect(failed.router.countersError).toBe(
    'all 7 reading(s) in 2 sample(s) failed, the last: connect ECONNREFUSED /run/haproxy.sock',
  );
  expect(sessionVerdict(failed).text).toBe(
    "not checked: the router's TLS counters were not read (all 7 reading(s) in 2 sample(s) failed, the last: " +
      'connect ECONNREFUSED /run/haproxy.sock)',
  );
  const tooShort = buildCellResult(cell, [sample({ readings: 0, failedReadings: 0, error: null })]);
  expect(tooShort.router.countersError).toBe('no reading in 1 sample(s): each ended before the first');
  // One sample read them: no error, whatever the others met; nothing tried (a cluster): none either.
  const read = summarizeReadings([
    {
      fullHandshakesPerSec: 1,
      backendFullHandshakesPerSec: 0,
      tlsSessionsPerSec: 100,
      reusePct: 99,
      sessionsPerSec: 100,
      currentConnections: 32,
      queued: 0,
    },
  ]);
  expect(
    buildCellResult(cell, [sample(refused), sample({ ...read, failedReadings: 0 })]).router,
  ).toMatchObject({
    counters: { readings: 1, reusePct: 99 },
    countersError: null,
  });
  const cluster = buildCellResult(cell, [sample(null)]);
  expect([cluster.router.counters, cluster.router.countersError]).toEqual([null, null]);
  expect(sessionVerdict(cluster).text).toBe("not checked: the router's TLS counters were not read");
});

test('the reuse share and full handshakes come from the TLS sessions counted over the sample, not the rates a previous cell still weighs on', () => {
  // HAProxy's per-second rates a second into a resumed cell still carry the full-handshake cell before it.
  const reading = (at, full, resumed, rates) => ({
    fullHandshakesPerSec: rates.full,
    backendFullHandshakesPerSec: 0,
    tlsSessionsPerSec: 1000,
    reusePct: rates.reuse,
    sessionsPerSec: 1000,
    currentConnections: 8,
    queued: 0,
    streamTotals: null,
    tlsTotals: { full, resumed },
    at,
  });
  const summary = summarizeReadings([
    reading(0, 5000, 100, { full: 900, reuse: 10 }),
    reading(500, 5005, 590, { full: 500, reuse: 50 }),
    reading(1000, 5010, 1085, { full: 100, reuse: 80 }),
    reading(1500, 5020, 1580, { full: 10, reuse: 99 }),
  ]);
  // 20 new sessions (each a full handshake) and 1,480 resumed in 1.5 s: 98.7 %, 13.3 a second.
  expect(summary).toMatchObject({ reusePct: 98.7, fullHandshakesPerSec: 13.3 });
  // Without a session counted (http, passthrough): no share and no full handshake, whatever the rates.
  const idle = summarizeReadings([
    reading(0, 5, 0, { full: 0, reuse: 0 }),
    reading(500, 5, 0, { full: 0, reuse: 0 }),
  ]);
  expect(idle).toMatchObject({ reusePct: null, fullHandshakesPerSec: 0 });
  // Another HAProxy answered the last reading (a reload): the rates decide.
  const other = { ...reading(500, 6000, 9000, { full: 7, reuse: 95 }), pid: 2 };
  expect(
    summarizeReadings([{ ...reading(0, 900, 50, { full: 7, reuse: 95 }), pid: 1 }, other]),
  ).toMatchObject({
    reusePct: 95,
    fullHandshakesPerSec: 7,
  });
  // A reload between them: the new HAProxy counts from 0, so the rates decide.
  const reloaded = summarizeReadings([
    reading(0, 900, 50, { full: 7, reuse: 95 }),
    reading(500, 3, 40, { full: 7, reuse: 95 }),
  ]);
  expect(reloaded).toMatchObject({ reusePct: 95, fullHandshakesPerSec: 7 });
});
