'use strict';
// k6 runner summaries as router-matrix.js writes them to SUMMARY_PATH, for the merge's tests: a lucky
// runner and an unlucky one of the same cell.
const { trendOf } = require('../../support/k6-trend');

/** A runner's summary as router-matrix.js writes it to SUMMARY_PATH (the fields the merge reads). */
function runnerSummary({
  latencies,
  seconds = 60,
  failed = 0,
  status502 = 0,
  vus = 32,
  cell = 'edge:1k:keepalive',
  meta = {},
}) {
  const requests = latencies.length + failed;
  const metrics = {
    http_reqs: {
      type: 'counter',
      contains: 'default',
      values: { count: requests, rate: requests / seconds },
    },
    request_failed: {
      type: 'rate',
      contains: 'default',
      values: { passes: failed, fails: latencies.length, rate: failed / requests },
    },
    request_total: { type: 'trend', contains: 'time', values: trendOf(latencies) },
    service_time: { type: 'trend', contains: 'time', values: trendOf(latencies.map(() => 0.5)) },
    vus_max: { type: 'gauge', contains: 'default', values: { value: vus, min: vus, max: vus } },
  };
  if (status502) metrics.errors_status_502 = { type: 'counter', values: { count: status502, rate: 0 } };
  return {
    // As router-matrix.js handleSummary writes it: VUS is the TestRun's total, split between runners.
    meta: {
      script: 'router-matrix',
      cell,
      termination: cell.split(':')[0],
      pageSize: 1024,
      connection: 'keepalive',
      target: 'cluster',
      executor: 'constant-vus',
      vus: 64,
      maxVus: 64,
      rate: null,
      duration: '1m',
      tlsVerify: true,
      ...meta,
    },
    state: { testRunDurationMs: seconds * 1000 },
    metrics,
  };
}

// Runner A was lucky (a fast node), runner B was not: 9000 requests at 1.00-1.49 ms, 1000 at 50-99 ms.
const fast = Array.from({ length: 9000 }, (_, i) => 1 + (i % 50) / 100);
const slow = Array.from({ length: 1000 }, (_, i) => 50 + (i % 50));
const runnerA = runnerSummary({ latencies: fast, seconds: 60 });
const runnerB = runnerSummary({ latencies: slow, seconds: 61, failed: 10, status502: 10 });

module.exports = { runnerSummary, runnerA, runnerB, fast, slow };
