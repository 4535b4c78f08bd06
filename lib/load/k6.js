'use strict';
// k6 as a load generator: one sample of one cell as its own k6 process, on the tool runner
// (which also samples the CPU of the router and the data-service instances meanwhile).
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../core/paths');
const { urlVariable, cellVariables } = require('../../k6/lib/cells');
const { READY_LINE } = require('../../k6/lib/generator');
const { runTool } = require('./runner');

const SCRIPT = path.join(ROOT, 'k6', 'router-matrix.js');
// k6 exits 99 when a threshold was crossed: the run itself is valid and is reported as such.
const THRESHOLDS_CROSSED = 99;

/** `-e NAME=value` arguments that point the k6 scripts at the target. */
function targetEnv(target) {
  const env = {};
  if (target.mode === 'lab') {
    env.TARGET = 'lab';
    env.APPS_DOMAIN = target.appsDomain;
    env.NAMESPACE = target.namespace;
    env.LAB_HTTP_PORT = String(target.httpPort);
    env.LAB_HTTPS_PORT = String(target.httpsPort);
  } else {
    env.TARGET = 'cluster';
    if (target.appsDomain) env.APPS_DOMAIN = target.appsDomain;
    env.NAMESPACE = target.namespace;
    if (target.routerAddress) env.ROUTER_ADDRESS = target.routerAddress;
  }
  for (const [termination, url] of Object.entries(target.urls || {})) {
    if (url) env[urlVariable(termination)] = url;
  }
  return env;
}

function k6Args(cell, opts, target, { durationSeconds, summaryPath }) {
  const env = {
    ...targetEnv(target),
    ...cellVariables(cell),
    VUS: String(opts.vus),
    DURATION: `${durationSeconds}s`,
  };
  if (opts.rate) env.RATE = String(opts.rate);
  if (opts.maxVus) env.MAX_VUS = String(opts.maxVus);
  if (target.insecure) env.INSECURE_SKIP_TLS_VERIFY = 'true';
  if (summaryPath) env.SUMMARY_PATH = summaryPath;
  // --address '': no REST API listener, so cells never fight over port 6565 with another k6.
  const args = ['run', '--quiet', '--no-color', '--address', ''];
  for (const [k, v] of Object.entries(env)) args.push('-e', `${k}=${v}`);
  args.push(SCRIPT);
  return args;
}

/** The GODEBUG setting that turns Go's (so k6's) HTTP/2 client off. */
const HTTP1_ONLY = 'http2client=0';

/**
 * k6's environment for a cell: an h1 cell through a TLS route turns Go's HTTP/2 client off, so a
 * router that offers h2 still gets HTTP/1.1 (k6 otherwise takes h2 whenever ALPN offers it).
 */
function protocolEnv(cell, env) {
  if (cell.protocol !== 'h1') return env;
  return { ...env, GODEBUG: [env.GODEBUG, HTTP1_ONLY].filter(Boolean).join(',') };
}

/**
 * `file args` run with SIGINT ignored as it starts (a shell's trap '' INT, kept across its exec,
 * so the pid stays k6's). k6 traps SIGINT only while its test runs, from loaded to finished, and
 * Go puts an inherited SIG_IGN back around that; with SIG_DFL, an early end (SIGINT) that met k6
 * still loading (20 ms after the spawn, measured) or already writing its summary killed it with
 * no summary (CI, route-scale's churn ending its load as the load's bound came).
 */
const ignoringSigint = (file, args) => ({
  file: 'sh',
  args: ['-c', 'trap "" INT; exec "$0" "$@"', file, ...args],
});

/** k6 as the tool runner runs it: the router-matrix script with the cell's environment. */
const k6Generator = {
  name: 'k6',
  describe: ({ cell }) => `k6 on cell ${cell.name}`,
  command({ k6, cell, opts, target, durationSeconds, summaryPath, dashboard }) {
    const env = { ...process.env, K6_NO_USAGE_REPORT: 'true' };
    if (target.caFile) env.SSL_CERT_FILE = target.caFile;
    if (dashboard) {
      fs.mkdirSync(path.dirname(dashboard), { recursive: true });
      // No listener (port -1); a period short enough that a short sample still has data points
      // (with the default 10 s period, a sample under 10 s exports nothing).
      Object.assign(env, {
        K6_WEB_DASHBOARD: 'true',
        K6_WEB_DASHBOARD_EXPORT: dashboard,
        K6_WEB_DASHBOARD_PORT: '-1',
        K6_WEB_DASHBOARD_PERIOD: `${Math.max(1, Math.round(durationSeconds / 10))}s`,
      });
    }
    const args = k6Args(cell, opts, target, { durationSeconds, summaryPath });
    return { ...ignoringSigint(k6, args), env: protocolEnv(cell, env) };
  },
  exitOk: (code) => code === 0 || code === THRESHOLDS_CROSSED,
  // On SIGINT k6 writes its summary and exits 105; requests cut in flight are left out of it, not
  // counted as failed (measured with k6 v1.8.1: 53 answered and counted, 0 failed, ~6 cut).
  // k6 traps SIGINT only while its test runs (ignoringSigint); the script's setup() logs
  // READY_LINE once it does, and the runner's early end waits for it.
  endEarly: { signal: 'SIGINT', exitCode: 105, ready: READY_LINE },
  parse(run, { cell, summaryPath }) {
    // A sample is the run (code, output, cpu, counters, allowedCores, …) and k6's summary.
    const result = { ...run };
    if (summaryPath) {
      try {
        result.summary = JSON.parse(fs.readFileSync(summaryPath, 'utf8'));
      } catch (err) {
        throw new Error(`k6 wrote no readable summary for ${cell.name} at ${summaryPath}: ${err.message}`, {
          cause: err,
        });
      }
    }
    return result;
  },
};

/**
 * The distinct reasons in k6's "Request Failed" warnings (`output` is its last 64 kB), the
 * request's method and URL left out: ['dial tcp 127.0.0.1:9080: connect: cannot assign requested
 * address']. What the client saw, in the words it saw it; at most `limit`, the most frequent first.
 */
function requestFailures(output, limit = 5) {
  const counts = new Map();
  for (const [, quoted] of output.matchAll(/msg="Request Failed" error="((?:[^"\\]|\\.)*)"/g)) {
    const text = quoted.replace(/\\(.)/g, '$1').replace(/^[A-Za-z]+ "[^"]*": /, '');
    counts.set(text, (counts.get(text) || 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([text]) => text);
}

/**
 * Runs k6 once for a cell. `watch` names other pids to sample ({ router: pid, … }), `cpus` pins
 * k6, `counters` reads the router's meanwhile, `netns` runs it in a namespace, `signal` stops it,
 * `end` ends it early with its summary. Resolves { code, summary, cpu, counters, allowedCores,
 * output, elapsedMs, endedEarly }.
 */
function runK6Sample({ watch, cpus, counters, netns, signal, end, ...input }) {
  return runTool(k6Generator, input, { watch, cpus, counters, netns, signal, end });
}

module.exports = {
  SCRIPT,
  THRESHOLDS_CROSSED,
  targetEnv,
  k6Args,
  k6Generator,
  protocolEnv,
  HTTP1_ONLY,
  runK6Sample,
  requestFailures,
};
