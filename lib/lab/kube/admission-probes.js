'use strict';
// What admission latency measures with any router configured from the API (the real router's
// Routes, the Gateway's HTTPRoutes): polls until a thing happens, GETs through the router, an
// endpoint withdrawn and published again, and the figures kept in <labDir>/admission.json.
const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { request } = require('../common/client');
const { writeJsonAtomic } = require('../../core/files');

const POLL_MS = 10;
const resultFile = (labDir) => path.join(labDir, 'admission.json');

/** Nearest-rank percentiles of a list of milliseconds. */
function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: rank(0.5), p99: rank(0.99), max: sorted[sorted.length - 1] };
}

/** GET /api/whoami on `host` through the router's HTTP port: { status, instance } or { error }. */
async function whoami(state, host) {
  const url = `http://${host}:${state.router.httpPort}/api/whoami`;
  try {
    const res = await request(url, { timeoutMs: 2000, agent: false });
    return { status: res.status, instance: res.status === 200 ? res.json().instance : null };
  } catch (err) {
    return { error: err.message };
  }
}

/** The code of the error timeUntil throws when what it waits for does not happen in time. */
const NOT_HAPPENED = 'ERR_NOT_HAPPENED';

/** Polls `probe` every POLL_MS until it returns truthy; resolves the ms since `since`. */
async function timeUntil(probe, since, { timeoutMs, what, signal }) {
  for (;;) {
    signal?.throwIfAborted();
    if (await probe()) return Date.now() - since;
    if (Date.now() - since > timeoutMs) {
      throw Object.assign(new Error(`${what} did not happen within ${timeoutMs} ms`), { code: NOT_HAPPENED });
    }
    await sleep(POLL_MS, undefined, { signal });
  }
}

/**
 * Withdraws the last instance's endpoint, then publishes it again (`endpoints`: { withdraw(instance),
 * publish(instance) }, through the API), each time polling the http route: resolves { instance,
 * removedMs, addedMs, requests, failed } (failed: answers other than 200).
 */
async function measureEndpointChange(state, endpoints, { timeoutMs, signal }) {
  const route = state.routes.find((r) => r.termination === 'http') || state.routes[0];
  const instance = state.instances[state.instances.length - 1];
  let requests = 0;
  let failed = 0;
  const ask = async () => {
    const answer = await whoami(state, route.host);
    requests++;
    if (answer.status !== 200) failed++;
    return answer.instance;
  };
  // Traffic has stopped at the first of 20 answers in a row from elsewhere (random balance over
  // two: a chance of 1 in 10^6 that it had not).
  let streak = 0;
  let stoppedAt = null;
  const withdrawn = Date.now();
  await endpoints.withdraw(instance);
  const gone = async () => {
    const from = await ask();
    const now = Date.now();
    streak = from && from !== instance.name ? streak + 1 : 0;
    if (streak === 1) stoppedAt = now;
    return streak >= 20;
  };
  try {
    await timeUntil(gone, withdrawn, { timeoutMs, what: `${instance.name} withdrawn`, signal });
  } catch (err) {
    // Interrupted or never applied: the instance goes back, as it was before.
    await endpoints.publish(instance).catch(() => {});
    throw err;
  }
  const removedMs = stoppedAt - withdrawn;
  const published = Date.now();
  await endpoints.publish(instance);
  const addedMs = await timeUntil(async () => (await ask()) === instance.name, published, {
    timeoutMs,
    what: `${instance.name} reached again`,
    signal,
  });
  return { instance: instance.name, removedMs, addedMs, requests, failed };
}

/**
 * The endpoint change of lab:admission, unless asked not to or there is one instance only (then
 * withdrawing it would stop the service rather than move its traffic): its figures or { skipped }.
 */
async function endpointChangeIfAny(state, endpoints, { endpointChange, timeoutMs, signal, log }) {
  const endpoint = !endpointChange
    ? { skipped: 'not asked for' }
    : state.instances.length > 1
      ? await measureEndpointChange(state, endpoints, { timeoutMs, signal })
      : { skipped: 'one instance only (LAB_REPLICAS=1): no endpoint to withdraw while traffic goes on' };
  if (endpoint.skipped) log(`  endpoint change: skipped, ${endpoint.skipped}`);
  else
    log(
      `  endpoint ${endpoint.instance}: traffic stopped ${endpoint.removedMs} ms after it was withdrawn, ` +
        `reached it ${endpoint.addedMs} ms after it was published (${endpoint.failed} of ${endpoint.requests} requests failed)`,
    );
  return endpoint;
}

/** Keeps lab:admission's figures for lab:status. */
const writeLastMeasured = (labDir, result) => writeJsonAtomic(resultFile(labDir), result);

/** The figures lab:admission measured last in this lab, or null. */
function readLastMeasured(labDir) {
  const file = resultFile(labDir);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
}

module.exports = {
  NOT_HAPPENED,
  summarize,
  whoami,
  timeUntil,
  measureEndpointChange,
  endpointChangeIfAny,
  writeLastMeasured,
  readLastMeasured,
};
