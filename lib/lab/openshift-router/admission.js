'use strict';
// Route admission latency with the real router (LAB_ROUTER=openshift): created → `Admitted` → first
// 200 through the router (which waits for its next reload, RELOAD_INTERVAL), and an endpoint
// withdrawn or published → traffic stops or reaches it.
const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { adminClient } = require('../kube/control-plane');
const { routesPath, routeAdmission } = require('../kube/routes-api');
const { publishEndpoint, withdrawEndpoint, newPodName } = require('../kube/bootstrap');
const { APPS_DOMAIN, NAMESPACE, SERVICE_NAME } = require('../common/routes');
const { request } = require('../common/client');
const { writeJsonAtomic } = require('../../core/files');
const { reloadCounters, reloadsBetween, haproxyMemory } = require('./router-metrics');

const PROBE_PREFIX = 'admission-probe-';
const POLL_MS = 10;
const resultFile = (labDir) => path.join(labDir, 'admission.json');

/** Nearest-rank percentiles of a list of milliseconds. */
function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: rank(0.5), p99: rank(0.99), max: sorted[sorted.length - 1] };
}

/** An http Route to the data service, named `name`, as `oc create route` makes it. */
function admissionProbeRoute(name) {
  return {
    apiVersion: 'route.openshift.io/v1',
    kind: 'Route',
    metadata: { name, namespace: NAMESPACE, labels: { 'router-lab.io/probe': 'admission' } },
    spec: {
      to: { kind: 'Service', name: SERVICE_NAME, weight: 100 },
      port: { targetPort: 'http' },
      wildcardPolicy: 'None',
    },
  };
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

/** One Route: created → admitted → first 200; deleted after. Resolves { admittedMs, firstOkMs }. */
async function measureOneRoute(state, client, name, { signal }) {
  const host = `${name}-${NAMESPACE}.${APPS_DOMAIN}`;
  const timeoutMs = state.router.reloadIntervalS * 1000 * 3 + 10000;
  const created = Date.now();
  await client.post(routesPath(), admissionProbeRoute(name));
  try {
    const admittedMs = await timeUntil(async () => (await routeAdmission(client, name)).admitted, created, {
      timeoutMs,
      what: `Route ${name} admitted`,
      signal,
    });
    const firstOkMs = await timeUntil(async () => (await whoami(state, host)).status === 200, created, {
      timeoutMs,
      what: `Route ${name} answering 200`,
      signal,
    });
    return { admittedMs, firstOkMs };
  } finally {
    await client.delete(`${routesPath()}/${name}`).catch(() => {});
  }
}

/**
 * Withdraws the last instance's endpoint, then publishes it again, each time polling the http
 * Route: resolves { removedMs, addedMs, requests, failed } (failed: answers other than 200).
 * `newPod`: it comes back as a new pod, as after a rollout; otherwise as the same pod, as one
 * whose readiness failed and recovered.
 */
async function measureEndpointChange(state, client, { signal, newPod = false }) {
  const route = state.routes.find((r) => r.termination === 'http') || state.routes[0];
  const instance = state.instances[state.instances.length - 1];
  const timeoutMs = state.router.reloadIntervalS * 1000 * 3 + 10000;
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
  await withdrawEndpoint(client, instance);
  const gone = async () => {
    const from = await ask();
    const now = Date.now();
    streak = from && from !== instance.name ? streak + 1 : 0;
    if (streak === 1) stoppedAt = now;
    return streak >= 20;
  };
  await timeUntil(gone, withdrawn, { timeoutMs, what: `${instance.name} withdrawn`, signal });
  const removedMs = stoppedAt - withdrawn;
  const published = Date.now();
  await publishEndpoint(client, instance, { pod: newPod ? newPodName(instance) : instance.name });
  const addedMs = await timeUntil(async () => (await ask()) === instance.name, published, {
    timeoutMs,
    what: `${instance.name} reached again`,
    signal,
  });
  return { instance: instance.name, removedMs, addedMs, requests, failed };
}

/**
 * Measures admission over `samples` Routes, one after another, then (unless `endpointChange` is
 * false) an endpoint change; writes and resolves the figures (also kept in
 * <labDir>/admission.json for lab:status).
 */
async function measureAdmission(state, { samples = 5, endpointChange = true, log = () => {}, signal } = {}) {
  const client = adminClient(state.labDir);
  const countersBefore = await reloadCounters(state.router);
  const runs = [];
  for (let i = 1; i <= samples; i++) {
    const run = await measureOneRoute(state, client, `${PROBE_PREFIX}${Date.now().toString(36)}-${i}`, {
      signal,
    });
    log(`  route ${i}/${samples}: admitted after ${run.admittedMs} ms, first 200 after ${run.firstOkMs} ms`);
    runs.push(run);
  }
  // With one instance, withdrawing it would stop the service rather than move its traffic.
  const endpoint = !endpointChange
    ? { skipped: 'not asked for' }
    : state.instances.length > 1
      ? await measureEndpointChange(state, client, { signal })
      : { skipped: 'one instance only (LAB_REPLICAS=1): no endpoint to withdraw while traffic goes on' };
  if (endpoint.skipped) log(`  endpoint change: skipped, ${endpoint.skipped}`);
  else
    log(
      `  endpoint ${endpoint.instance}: traffic stopped ${endpoint.removedMs} ms after it was withdrawn, ` +
        `reached it ${endpoint.addedMs} ms after it was published (${endpoint.failed} of ${endpoint.requests} requests failed)`,
    );
  const haproxy = haproxyMemory(state.router.pid);
  const result = {
    measuredAt: new Date().toISOString(),
    router: `${state.router.openshiftRouter.branch} (${state.router.openshiftRouter.commit.slice(0, 12)})`,
    reloadIntervalS: state.router.reloadIntervalS,
    // The Routes the router served meanwhile (LAB_ROUTES), and what its reloads cost at that count.
    routes: state.routes.length + (state.scaleRoutes ? state.scaleRoutes.count : 0),
    reloads: reloadsBetween(countersBefore, await reloadCounters(state.router)),
    haproxyMb: { serving: haproxy[0]?.rssMb ?? null, older: haproxy.slice(1).map((h) => h.rssMb) },
    samples,
    admitted: summarize(runs.map((r) => r.admittedMs)),
    firstOk: summarize(runs.map((r) => r.firstOkMs)),
    endpoint,
  };
  writeJsonAtomic(resultFile(state.labDir), result);
  return result;
}

/** lab:status's view: each Route's admission now, and the last measured figures. */
async function routeAdmissions(state) {
  const client = adminClient(state.labDir);
  const routes = await Promise.all(
    state.routes.map(async (r) => {
      try {
        return { name: r.name, ...(await routeAdmission(client, r.name)) };
      } catch (err) {
        return { name: r.name, error: `API: ${err.message}` };
      }
    }),
  );
  const file = resultFile(state.labDir);
  const lastMeasured = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
  return { routes, lastMeasured };
}

module.exports = {
  NOT_HAPPENED,
  measureAdmission,
  measureEndpointChange,
  routeAdmissions,
  summarize,
  admissionProbeRoute,
};
