'use strict';
// Route admission latency with the real router (LAB_ROUTER=openshift): created → `Admitted` → first
// 200 through the router (which waits for its next reload, RELOAD_INTERVAL), and an endpoint
// withdrawn or published → traffic stops or reaches it.
const { adminClient } = require('../kube/control-plane');
const { routesPath, routeAdmission } = require('../kube/routes-api');
const { publishEndpoint, withdrawEndpoint, newPodName } = require('../kube/bootstrap');
const {
  summarize,
  whoami,
  timeUntil,
  endpointChangeIfAny,
  writeLastMeasured,
  readLastMeasured,
} = require('../kube/admission-probes');
const { APPS_DOMAIN, NAMESPACE, SERVICE_NAME } = require('../common/routes');
const { reloadCounters, reloadsBetween, haproxyMemory } = require('./router-metrics');

const PROBE_PREFIX = 'admission-probe-';
/** Three reload intervals and 10 s: what a Route or an endpoint change may take to serve. */
const timeoutOf = (state) => state.router.reloadIntervalS * 1000 * 3 + 10000;

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

/** One Route: created → admitted → first 200; deleted after. Resolves { admittedMs, firstOkMs }. */
async function measureOneRoute(state, client, name, { signal }) {
  const host = `${name}-${NAMESPACE}.${APPS_DOMAIN}`;
  const timeoutMs = timeoutOf(state);
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
 * The router's endpoints of the data service through the API: `newPod`, it comes back as a new
 * pod, as after a rollout; otherwise as the same pod, as one whose readiness failed and recovered.
 */
const endpointsApi = (client, { newPod = false } = {}) => ({
  withdraw: (instance) => withdrawEndpoint(client, instance),
  publish: (instance) =>
    publishEndpoint(client, instance, { pod: newPod ? newPodName(instance) : instance.name }),
});

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
  const endpoint = await endpointChangeIfAny(state, endpointsApi(client), {
    endpointChange,
    timeoutMs: timeoutOf(state),
    signal,
    log,
  });
  const haproxy = haproxyMemory(state.router.pid);
  const result = {
    measuredAt: new Date().toISOString(),
    router: `${state.router.openshiftRouter.branch} (${state.router.openshiftRouter.commit.slice(0, 12)})`,
    reloadIntervalS: state.router.reloadIntervalS,
    // What a new Route waits for before it serves.
    waitsFor: `the router's next reload (RELOAD_INTERVAL ${state.router.reloadIntervalS} s)`,
    // The Routes the router served meanwhile (LAB_ROUTES), and what its reloads cost at that count.
    routes: state.routes.length + (state.scaleRoutes ? state.scaleRoutes.count : 0),
    reloads: reloadsBetween(countersBefore, await reloadCounters(state.router)),
    haproxyMb: { serving: haproxy[0]?.rssMb ?? null, older: haproxy.slice(1).map((h) => h.rssMb) },
    samples,
    admitted: summarize(runs.map((r) => r.admittedMs)),
    firstOk: summarize(runs.map((r) => r.firstOkMs)),
    endpoint,
  };
  result.details = [
    `with ${result.routes} Routes: ${result.reloads.count} reloads, render ${result.reloads.renderMs ?? '–'} ms, ` +
      `reload ${result.reloads.reloadMs ?? '–'} ms each (the router's own /metrics); HAProxy ` +
      `${result.haproxyMb.serving ?? '–'} MB serving` +
      (result.haproxyMb.older.length ? `, ${result.haproxyMb.older.join(', ')} MB still finishing` : ''),
  ];
  writeLastMeasured(state.labDir, result);
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
  return {
    title: "Route admission (the router's status on each Route):",
    routes,
    lastMeasured: readLastMeasured(state.labDir),
  };
}

module.exports = { measureAdmission, endpointsApi, timeoutOf, routeAdmissions, admissionProbeRoute };
