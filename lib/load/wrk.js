'use strict';
// The cross-check: the same keep-alive cell driven by wrk, a C load generator that needs far
// less CPU per request than k6. If the two disagree by more than 10 %, one of them (usually k6)
// was the limit, not the router.
const dns = require('node:dns').promises;
const { spawn } = require('node:child_process');
const { startCpuMonitor } = require('./cpu-monitor');
const { sizeLabel } = require('../../k6/lib/cells');
const { parseWrkOutput } = require('./wrk-output');

const GAP_FLAG = 0.1;

/** Relative gap of k6 against wrk, flagged above 10 %. */
function compareTools(k6Rps, wrkRps) {
  if (!wrkRps) return { gap: null, flagged: false };
  const gap = (wrkRps - k6Rps) / wrkRps;
  return { gap: Number(gap.toFixed(3)), flagged: Math.abs(gap) > GAP_FLAG };
}

async function resolves(host) {
  try {
    await dns.lookup(host);
    return true;
  } catch {
    return false;
  }
}

/**
 * How wrk reaches a route: wrk takes the TLS SNI from the URL's host, so in the lab (where the
 * route host is only known to k6's `hosts` option) it connects to 127.0.0.1 with a Host header.
 * That works for http, edge and re-encrypt (routed by Host), not for passthrough (routed by SNI),
 * unless the route host resolves on this machine. Returns { url, host } or { skip: reason }.
 */
async function wrkTarget(cell, route, target) {
  const pathPart = `/api/pages/${sizeLabel(cell.pageSize)}`;
  if (target.mode !== 'lab' || (await resolves(route.host)))
    return { url: `${route.url}${pathPart}`, host: null };
  if (cell.termination === 'passthrough') {
    return {
      skip: `wrk sends the URL's host as SNI and ${route.host} does not resolve here, so it cannot reach a passthrough route`,
    };
  }
  const port = new URL(route.url).port;
  const scheme = route.url.startsWith('https') ? 'https' : 'http';
  return { url: `${scheme}://127.0.0.1:${port}${pathPart}`, host: route.host };
}

/** Why the cross-check does not run for this cell with these options, or null when it does. */
function crossCheckSkip(cell, opts) {
  if (cell.connection !== 'keepalive') return 'close cells are not cross-checked';
  if (opts.rate) {
    return `open model (--rate ${opts.rate}): k6 is held to the rate while wrk runs flat out, so their req/s cannot be compared`;
  }
  return null;
}

/** The command that starts wrk: under taskset on the cores k6 uses (LAB_CPUS), or as is. */
function wrkCommand(wrk, args, cpus) {
  return cpus ? ['taskset', ['-c', cpus, wrk, ...args]] : [wrk, args];
}

function abortError() {
  return Object.assign(new Error('interrupted'), { name: 'AbortError' });
}

/**
 * Runs wrk for durationSeconds with `connections` connections; resolves the parsed result.
 * `cpus` pins it like k6; `signal` (AbortSignal) stops it and rejects with AbortError.
 */
function runWrk({ wrk, url, host, connections, threads, durationSeconds, watch = {}, cpus, signal }) {
  const args = [
    '-t',
    String(threads),
    '-c',
    String(Math.max(connections, threads)),
    '-d',
    `${durationSeconds}s`,
  ];
  args.push('--latency', '--timeout', '5s');
  if (host) args.push('-H', `Host: ${host}`);
  args.push(url);
  const [file, argv] = wrkCommand(wrk, args, cpus);
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) return reject(abortError());
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const monitor = startCpuMonitor({ wrk: child.pid, ...watch });
    const onAbort = () => child.kill('SIGTERM');
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (err) => {
      monitor.stop();
      if (signal) signal.removeEventListener('abort', onAbort);
      reject(new Error(`could not start wrk (${file}): ${err.message}`));
    });
    child.once('exit', (code) => {
      monitor.stop();
      if (signal) signal.removeEventListener('abort', onAbort);
      if (signal && signal.aborted) return reject(abortError());
      if (code !== 0) return reject(new Error(`wrk exited ${code}:\n${output.trim().slice(-1000)}`));
      try {
        const parsed = parseWrkOutput(output);
        const cpu = monitor.result();
        resolve({
          ...parsed,
          wrkCpuCores: cpu.cores.wrk === null ? null : Number(cpu.cores.wrk.toFixed(2)),
          threads,
          connections,
        });
      } catch (err) {
        reject(err);
      }
    });
  });
}

module.exports = {
  GAP_FLAG,
  parseWrkOutput,
  compareTools,
  wrkTarget,
  crossCheckSkip,
  wrkCommand,
  runWrk,
};
