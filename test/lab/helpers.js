'use strict';
// Shared by the lab tests: a lab environment on a temp LAB_DIR with a free port for every
// listener (never 9080/9443/1936, so a running lab is not disturbed), TLS inspection, and a
// bounded keep-alive load loop.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const { request, keepAliveAgent } = require('../../lib/lab/common/client');
const { isAlive } = require('../../lib/core/processes');
const { isListening } = require('../../lib/core/ports');
const { pooledLabDir, rememberEnv, useExclusively, WAIT_MS } = require('../support/lab-pool');

/** A fresh env for a test lab: temp LAB_DIR, every port 0 (free ports chosen at lab:up). */
function labEnv(overrides = {}, dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-'))) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LAB_DIR: dir,
    LAB_HTTP_PORT: '0',
    LAB_HTTPS_PORT: '0',
    LAB_STATS_PORT: '0',
    LAB_SERVICE_BASE_PORT: '0',
    LAB_REDIS_PORT: '0',
    LAB_REPLICAS: '2',
    ...overrides,
  };
}

/**
 * beforeAll's time for lab:up: longer than any wait inside it (the pods' readiness: 300 s), so that a
 * failure shows lab:up's own error and log, not Jest's "Exceeded timeout".
 */
const LAB_UP_MS = 420000;

/** Collects progress lines instead of printing them (shown when a test fails). */
function quietLog() {
  const lines = [];
  const log = (line) => lines.push(line);
  log.lines = lines;
  return log;
}

/** lab:up with `env`, its progress kept and shown only in the error when it fails. */
async function quietUp(env) {
  const log = quietLog();
  try {
    return await require('../../lib/lab/index').up({ env, log });
  } catch (err) {
    throw new Error(`lab:up failed: ${err.message}\n${log.lines.join('\n')}`, { cause: err });
  }
}

/**
 * For a describe block: brings a lab up in beforeAll (progress kept quiet, shown if it fails) and
 * takes it down in afterAll, removing its temp directory. Returns { env, state } (state is set
 * once beforeAll ran; tests may replace it, e.g. after a rollout).
 */
function useLab(overrides = {}) {
  const lab = require('../../lib/lab/index');
  const ctx = { env: labEnv(overrides), state: null };
  beforeAll(async () => {
    rememberEnv(ctx.env);
    ctx.state = await quietUp(ctx.env);
  }, LAB_UP_MS);
  afterAll(async () => {
    try {
      await lab.down({ env: ctx.env, log: () => {} });
    } finally {
      fs.rmSync(ctx.env.LAB_DIR, { recursive: true, force: true });
    }
  });
  return ctx;
}

/**
 * For a describe block that only reads its lab, or leaves it as it found it: the run's shared lab
 * with these knobs (test/support/lab-pool.js), started by the first file that asks, used by one
 * file at a time, and taken down when Jest ends. Returns { env, state } like useLab. A file that
 * changes its lab for good (a reload it counts, lab:down) keeps its own: useLab. Without the pool
 * (Jest run without its globalSetup), this is useLab.
 */
function sharedLab(overrides = {}) {
  const dir = pooledLabDir(overrides);
  if (!dir) return useLab(overrides);
  const ctx = { env: labEnv(overrides, dir), state: null };
  let release = null;
  beforeAll(async () => {
    // Once a file in another worker is done with it (lab-pool's useExclusively).
    release = await useExclusively(dir);
    rememberEnv(ctx.env);
    // The running lab when an earlier file started it; a new one when none runs (yet, or any more).
    ctx.state = await quietUp(ctx.env);
  }, WAIT_MS + LAB_UP_MS);
  afterAll(() => release?.());
  return ctx;
}

/** For a describe block: a temp directory named after `prefix`, removed in afterAll. */
function useTempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // Retried: a child that is still ending (Chromium writing its profile) fails one rmdir ENOTEMPTY.
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }));
  return dir;
}

/**
 * Runs the reliability scenarios `names` with `opts` against the lab of `env`, writing into `dir`,
 * quietly unless `log` is given. Resolves { dir, doc } as runReliability does.
 */
function runScenarios(names, opts, { env, dir, log = quietLog() }) {
  const { runReliability, selectScenarios } = require('../../lib/reliability/run');
  return runReliability({ scenarios: selectScenarios(names), opts, env, dir, runId: 'test', log });
}

const route = (state, termination) => state.routes.find((r) => r.termination === termination);

/** The certificate the router presents for `servername` on the HTTPS port (no verification). */
function peerCertificate(state, servername) {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      { host: '127.0.0.1', port: state.router.httpsPort, servername, rejectUnauthorized: false },
      () => {
        const cert = socket.getPeerCertificate();
        socket.end();
        resolve(cert);
      },
    );
    socket.once('error', reject);
  });
}

/** Does `cert` (a PEM file) verify the chain for `servername`? Returns the TLS error code or null. */
function verifyWith(state, servername, caFile) {
  return new Promise((resolve) => {
    const socket = tls.connect(
      { host: '127.0.0.1', port: state.router.httpsPort, servername, ca: fs.readFileSync(caFile) },
      () => {
        socket.end();
        resolve(null);
      },
    );
    socket.once('error', (err) => resolve(err.code || err.message));
  });
}

/** GET /api/whoami through a route, trusting the CA that route's clients must trust. */
async function whoami(state, termination, { agent = false, caFile, headers } = {}) {
  const r = route(state, termination);
  const ca = fs.readFileSync(
    caFile || (termination === 'passthrough' ? state.certs.serviceCA : state.certs.labCA),
  );
  // Passthrough serves the service-ca certificate, which names data-service.router-lab.svc, not the
  // route host: exactly what a client sees on OpenShift. Verify the chain, skip the name.
  const extra = termination === 'passthrough' ? { rejectUnauthorized: false } : {};
  const res = await request(`${r.url}/api/whoami`, { ca, agent, headers, ...extra });
  if (res.status !== 200) throw new Error(`${r.name}: /api/whoami answered ${res.status}`);
  return res.json();
}

/**
 * Sends requests to `url` from `concurrency` keep-alive loops until `until()` is true or
 * `maxMs` passes. Returns { total, ok, failures: [..], byInstance: { name: count } }.
 */
async function loadLoop(url, { concurrency = 8, maxMs = 30000, until = () => false, ca, onResponse } = {}) {
  const secure = url.startsWith('https:');
  const agent = keepAliveAgent({ secure, ca, maxSockets: concurrency });
  const result = { total: 0, ok: 0, failures: [], byInstance: {} };
  const deadline = Date.now() + maxMs;
  const worker = async () => {
    while (Date.now() < deadline && !until()) {
      result.total++;
      try {
        const res = await request(url, { agent, ca, timeoutMs: 10000 });
        if (res.status === 200) {
          result.ok++;
          const { instance } = res.json();
          result.byInstance[instance] = (result.byInstance[instance] || 0) + 1;
          if (onResponse) onResponse(instance);
        } else {
          result.failures.push(`HTTP ${res.status}`);
        }
      } catch (err) {
        result.failures.push(err.code || err.message);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return result;
}

/** Every pid and port of a lab state: to prove lab:down left nothing behind. */
function labFootprint(state) {
  const pids = [state.router.pid, ...state.instances.map((i) => i.pid), ...state.redis.pids];
  const ports = [
    state.router.httpPort,
    state.router.httpsPort,
    state.router.statsPort,
    ...state.instances.flatMap((i) => [i.port, i.tlsPort]),
    ...state.redis.ports,
  ];
  return { pids, ports };
}

async function aliveOrListening({ pids, ports }) {
  const alive = pids.filter((pid) => isAlive(pid));
  const listening = [];
  for (const port of ports) if (await isListening(port)) listening.push(port);
  return { alive, listening };
}

module.exports = {
  useTempDir,
  runScenarios,
  labEnv,
  useLab,
  sharedLab,
  quietLog,
  route,
  peerCertificate,
  verifyWith,
  whoami,
  loadLoop,
  labFootprint,
  aliveOrListening,
};
