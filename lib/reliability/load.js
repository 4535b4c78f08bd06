'use strict';
// The steady load while a fault is injected: k6 on the one tool runner at a fixed arrival rate,
// bounded in time, through a Route (pages, no Redis) or the bank's records workload (every request
// touches Redis). Each run ends in the same figures: requests, errors by kind, latency.
const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { ROOT } = require('../core/paths');
const { runK6Sample, targetEnv, THRESHOLDS_CROSSED, requestFailures } = require('../load/k6');
const { runTool } = require('../load/runner');
const { reduceSummaries, errorsByStatus } = require('../results-model/reduce');
const { cellOf } = require('../../k6/lib/cells');

const RECORDS_SCRIPT = path.join(ROOT, 'k6', 'data-service.js');

/** k6 allocates VUs ahead; at loopback latencies one VU serves about 50 requests/s. */
const vusFor = (rate) => Math.max(4, Math.ceil(rate / 50));

/** Status keys of k6/lib/errors.js in words: 0 is "no HTTP response at all". */
function errorKinds(errors) {
  const kinds = {};
  for (const [status, count] of Object.entries(errors)) {
    const kind = status === '0' ? 'no response (refused, reset, timeout)' : `HTTP ${status}`;
    kinds[kind] = count;
  }
  return kinds;
}

const round = (v) => (v === null || v === undefined ? null : Number(v.toFixed(2)));

/**
 * Steady GET /api/pages/1k through one Route: `termination`, `connection` (keepalive|close),
 * `rate` requests/s (or, without a rate, `vus` clients back to back) for `durationSeconds`, from
 * inside network namespace `netns` when given; `end` ends it early (k6 keeps its summary). Resolves { requests, failed, errors, rps, p50, p99,
 * max, clientErrors } (latency of successful requests, ms, connection set-up included;
 * clientErrors: k6's reasons for requests without a response).
 */
async function steadyPages({
  k6,
  target,
  termination,
  connection,
  rate,
  vus,
  durationSeconds,
  summaryPath,
  netns,
  signal,
  end,
}) {
  // k6 does a full TLS handshake on each new connection (the session part of a close TLS cell).
  const cell = cellOf({ termination, pageSize: 1024, connection, tlsSession: 'full' });
  // Crossed thresholds (k6 exit 99) still give a summary: the figures, not k6, judge a fault.
  // `vus` without a rate: a closed model, `vus` clients back to back.
  const opts = rate ? { vus: vusFor(rate), rate, maxVus: vusFor(rate) * 4 } : { vus };
  fs.mkdirSync(path.dirname(summaryPath), { recursive: true });
  const sample = await runK6Sample({
    k6,
    cell,
    opts,
    target,
    durationSeconds,
    summaryPath,
    netns,
    signal,
    end,
  });
  const seconds = sample.endedEarly
    ? `${(sample.elapsedMs / 1000).toFixed(1)} s (ended early)`
    : `${durationSeconds} s`;
  const r = reduceSummaries([sample.summary], { combine: 'sequential' });
  const failed = Object.values(r.errors).reduce((a, b) => a + b, 0);
  return {
    workload:
      `GET /api/pages/1k via ${termination}, ${connection}, ` +
      `${rate ? `${rate} req/s` : `${vus} clients back to back`} for ${seconds} (k6)`,
    requests: r.requests,
    failed,
    errors: r.errors,
    errorKinds: errorKinds(r.errors),
    clientErrors: requestFailures(sample.output),
    rps: r.rps,
    droppedIterations: r.load.droppedIterations,
    p50: r.p50,
    p99: r.p99,
    max: r.max,
  };
}

/** k6/data-service.js as the tool runner runs it: add/update/select records at a fixed rate. */
const recordsGenerator = {
  name: 'k6',
  describe: ({ termination }) => `k6 records workload via ${termination}`,
  command({ k6, target, termination, rate, durationSeconds, summaryPath, seedRecords = 50 }) {
    const env = {
      ...targetEnv(target),
      ROUTE: termination,
      RATE: String(rate),
      DURATION: `${durationSeconds}s`,
      PRE_VUS: String(vusFor(rate)),
      MAX_VUS: String(vusFor(rate) * 4),
      SEED_RECORDS: String(seedRecords),
      // A fault is expected to fail requests: the run's figures, not k6's thresholds, judge it.
      MAX_ERROR_RATE: '1',
      SUMMARY_PATH: summaryPath,
    };
    const args = ['run', '--quiet', '--no-color', '--address', ''];
    for (const [k, v] of Object.entries(env)) args.push('-e', `${k}=${v}`);
    args.push(RECORDS_SCRIPT);
    const processEnv = { ...process.env, K6_NO_USAGE_REPORT: 'true' };
    if (target.caFile) processEnv.SSL_CERT_FILE = target.caFile;
    return { file: k6, args: args, env: processEnv };
  },
  exitOk: (code) => code === 0 || code === THRESHOLDS_CROSSED,
  parse(run, { summaryPath }) {
    return JSON.parse(fs.readFileSync(summaryPath, 'utf8'));
  },
};

/**
 * Steady records workload (k6/data-service.js: 20 % add, 20 % update, 60 % select) at `rate`
 * requests/s for `durationSeconds` through `termination`. Resolves { requests, failed, errors,
 * p50, p99, max (ms, all requests: a failed one that hung shows in max) }.
 */
async function steadyRecords({ k6, target, termination, rate, durationSeconds, summaryPath, signal }) {
  fs.mkdirSync(path.dirname(summaryPath), { recursive: true });
  const summary = await runTool(
    recordsGenerator,
    { k6, target, termination, rate, durationSeconds, summaryPath },
    { signal, cpus: target.k6Cpus },
  );
  const metric = (name) => (summary.metrics[name] || {}).values || {};
  const errors = errorsByStatus([summary]);
  // Every request, failed ones included: a hang shows in max whatever its status.
  const duration = metric('http_req_duration');
  return {
    workload: `records (add/update/select) via ${termination}, ${rate} req/s for ${durationSeconds} s (k6)`,
    requests: metric('http_reqs').count || 0,
    failed: Object.values(errors).reduce((a, b) => a + b, 0),
    errors,
    errorKinds: errorKinds(errors),
    droppedIterations: metric('dropped_iterations').count || 0,
    p50: round(duration.med),
    p99: round(duration['p(99)']),
    max: round(duration.max),
  };
}

/**
 * steadyPages through each of `terminations` at once, keep-alive, at `rate` each; the summary of
 * each goes to rawFile(`${prefix}-<termination>.json`); `end` ends them all early. Resolves the
 * loads in that order.
 */
function steadyPagesEach(ctx, { terminations, rate, durationSeconds, prefix, signal, end }) {
  return Promise.all(
    terminations.map((termination) =>
      steadyPages({
        k6: ctx.k6,
        target: ctx.target,
        termination,
        connection: 'keepalive',
        rate,
        durationSeconds,
        summaryPath: ctx.rawFile(`${prefix}-${termination}.json`),
        signal,
        end,
      }),
    ),
  );
}

/**
 * A fault injected while a steady load runs: `load(signal, end)` starts the load, `fault(signal)`
 * then runs beside it. A fault that fails stops the load at once (and waits for it); Ctrl-C
 * (`signal`) stops both. With `endAfterMs`, `end` is aborted that long after the fault is done: a
 * load that passes it on ends then, its figures kept, rather than idling out the length it was
 * given for the fault's worst case. Resolves { load, fault }: what each resolved with.
 */
async function underLoad({ signal: parent, load, fault, endAfterMs = null }) {
  const local = new AbortController();
  const signal = AbortSignal.any([parent, local.signal].filter(Boolean));
  const end = new AbortController();
  const loading = load(signal, end.signal);
  // Awaited later; a rejection meanwhile (Ctrl-C) must not count as unhandled.
  loading.catch(() => {});
  let outcome;
  try {
    outcome = await fault(signal);
    if (endAfterMs !== null) {
      await sleep(endAfterMs, undefined, { signal });
      end.abort();
    }
  } catch (err) {
    local.abort();
    await loading.catch(() => {});
    throw err;
  }
  return { load: await loading, fault: outcome };
}

/**
 * The Redis scenarios' shape: the records workload through the http Route at --rate for
 * `durationSeconds` (summary in rawFile(`${name}-http.json`)), `fault(signal)` beside it.
 * Resolves { load, fault } as underLoad does.
 */
function recordsUnderFault(ctx, { name, durationSeconds, fault }) {
  return underLoad({
    signal: ctx.signal,
    load: (signal) =>
      steadyRecords({
        k6: ctx.k6,
        target: ctx.target,
        termination: 'http',
        rate: ctx.opts.rate,
        durationSeconds,
        summaryPath: ctx.rawFile(`${name}-http.json`),
        signal,
      }),
    fault,
  });
}

module.exports = {
  steadyPages,
  steadyPagesEach,
  steadyRecords,
  errorKinds,
  recordsGenerator,
  underLoad,
  recordsUnderFault,
};
