'use strict';
// Runs one sample of one cell as its own k6 process, watching the CPU of k6, the router and
// the data-service instances while it runs. Resolves with the raw summary and what was seen.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT } = require('../core/paths');
const { startCpuMonitor, allowedCores } = require('./cpu-monitor');
const { parseCpuList } = require('../core/cpus');

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
  }
  for (const [termination, url] of Object.entries(target.urls || {})) {
    if (url) env[`URL_${termination.toUpperCase()}`] = url;
  }
  return env;
}

function k6Args(cell, opts, target, { durationSeconds, summaryPath }) {
  const env = {
    ...targetEnv(target),
    TERMINATION: cell.termination,
    PAGE_SIZE: String(cell.pageSize),
    CONNECTION: cell.connection,
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

/**
 * Runs k6 once. `watch` names other pids to sample ({ router: pid, 'data-service-1': pid }).
 * Resolves { code, summary, cpu, k6AllowedCores, output, elapsedMs }.
 */
function runK6Sample({
  k6,
  cell,
  opts,
  target,
  durationSeconds,
  summaryPath,
  watch = {},
  cpus,
  dashboard,
  signal,
}) {
  const args = k6Args(cell, opts, target, { durationSeconds, summaryPath });
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
  const [file, argv] = cpus ? ['taskset', ['-c', cpus, k6, ...args]] : [k6, args];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted)
      return reject(Object.assign(new Error('interrupted'), { name: 'AbortError' }));
    const child = spawn(file, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk.toString()).slice(-20000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const monitor = startCpuMonitor({ k6: child.pid, ...watch });
    // With cpus, child.pid is taskset's until it execs k6: its affinity is not pinned yet.
    const k6AllowedCores = cpus ? parseCpuList(cpus).length : allowedCores(child.pid);
    const onAbort = () => child.kill('SIGTERM');
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (err) => {
      monitor.stop();
      reject(new Error(`could not start k6 (${file}): ${err.message}`));
    });
    child.once('exit', (code, sig) => {
      monitor.stop();
      if (signal) signal.removeEventListener('abort', onAbort);
      const result = {
        code,
        signal: sig,
        cpu: monitor.result(),
        k6AllowedCores,
        output,
        elapsedMs: Date.now() - started,
      };
      if (signal && signal.aborted)
        return reject(Object.assign(new Error('interrupted'), { name: 'AbortError' }));
      if (code !== 0 && code !== THRESHOLDS_CROSSED) {
        return reject(
          new Error(`k6 failed on cell ${cell.name} (exit ${code ?? sig}):\n${output.trim().slice(-2000)}`),
        );
      }
      if (summaryPath) {
        try {
          result.summary = JSON.parse(fs.readFileSync(summaryPath, 'utf8'));
        } catch (err) {
          return reject(
            new Error(`k6 wrote no readable summary for ${cell.name} at ${summaryPath}: ${err.message}`),
          );
        }
      }
      resolve(result);
    });
  });
}

module.exports = { SCRIPT, THRESHOLDS_CROSSED, targetEnv, k6Args, runK6Sample };
