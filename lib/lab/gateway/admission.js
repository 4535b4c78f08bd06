'use strict';
// Admission latency through the Gateway (LAB_ROUTER=gateway): an HTTPRoute created → `Accepted` by
// istiod → its first answer through Envoy (once istiod has pushed it), and an endpoint withdrawn or
// published → traffic stops or reaches it; with istiod's own count and time of its pushes.
const { adminClient } = require('../kube/control-plane');
const {
  summarize,
  timeUntil,
  endpointChangeIfAny,
  writeLastMeasured,
  readLastMeasured,
} = require('../kube/admission-probes');
const { APPS_DOMAIN, NAMESPACE, SERVICE_NAME } = require('../common/routes');
const { SCALE_LABEL } = require('../common/scale-routes');
const { request } = require('../common/client');
const { probeRoute } = require('../common/health');
const { sumSeries } = require('../common/metrics-text');
const { rssBytes, megabytes } = require('../../core/proc');
const { GATEWAY, gatewayEndpoints } = require('./index');
const { GATEWAY_CLASS } = require('./istiod');

const PROBE_PREFIX = 'admission-probe-';
const PROBE_HEADER = 'x-router-lab-probe';
/** istiod debounces changes for 100 ms and pushes in milliseconds: 30 s is far past a slow push. */
const TIMEOUT_MS = 30000;
const GROUP = '/apis/gateway.networking.k8s.io/v1';
const routesPath = (kind) => `${GROUP}/namespaces/${NAMESPACE}/${kind}`;

/**
 * An HTTPRoute for `name`'s own host on the Gateway's http listener, to the data service. Its
 * answers carry PROBE_HEADER: the component's catch-all HTTPRoute answers every host already.
 */
function admissionProbeHttpRoute(name, host) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name, namespace: NAMESPACE, labels: { 'router-lab.io/probe': 'admission' } },
    spec: {
      parentRefs: [{ name: GATEWAY.name, namespace: GATEWAY.namespace, sectionName: 'http' }],
      hostnames: [host],
      rules: [
        {
          filters: [
            {
              type: 'ResponseHeaderModifier',
              responseHeaderModifier: { add: [{ name: PROBE_HEADER, value: name }] },
            },
          ],
          backendRefs: [{ name: SERVICE_NAME, port: 8080 }],
        },
      ],
    },
  };
}

/** istiod's verdict on a route object (its parent status for the Gateway): like routeAdmission's. */
function routeVerdict(route) {
  const parents = (route.status?.parents || []).filter((p) => p.controllerName === GATEWAY_CLASS.controller);
  const accepted = parents.flatMap((p) => p.conditions || []).filter((c) => c.type === 'Accepted');
  const refused = accepted.find((c) => c.status === 'False');
  return {
    admitted: accepted.length > 0 && !refused,
    rejected: Boolean(refused),
    reason: refused?.reason || null,
    message: refused?.message || null,
    host: (route.spec?.hostnames || []).join(', ') || '*',
  };
}

/** Whether `host` answers 200 through Envoy's http port with the probe's header: the route is live. */
async function served(state, host, name) {
  const probe = await probeRoute({ termination: 'http', url: `http://${host}:${state.router.httpPort}` });
  return probe.ok && probe.headers[PROBE_HEADER] === name;
}

/** One HTTPRoute: created → Accepted → first 200 through it; deleted after. */
async function measureOneRoute(state, client, name, { signal }) {
  const host = `${name}-${NAMESPACE}.${APPS_DOMAIN}`;
  const path = `${routesPath('httproutes')}/${name}`;
  const created = Date.now();
  await client.post(routesPath('httproutes'), admissionProbeHttpRoute(name, host));
  try {
    const admittedMs = await timeUntil(async () => routeVerdict(await client.get(path)).admitted, created, {
      timeoutMs: TIMEOUT_MS,
      what: `HTTPRoute ${name} accepted`,
      signal,
    });
    const firstOkMs = await timeUntil(() => served(state, host, name), created, {
      timeoutMs: TIMEOUT_MS,
      what: `HTTPRoute ${name} answering 200 through Envoy`,
      signal,
    });
    return { admittedMs, firstOkMs };
  } finally {
    await client.delete(path).catch(() => {});
  }
}

const PUSH_SERIES = {
  pushes: 'pilot_xds_pushes',
  pushSeconds: 'pilot_xds_push_time_sum',
  pushesTimed: 'pilot_xds_push_time_count',
};

/** istiod's pushes to Envoy so far (every xDS type), from its /metrics. */
async function pushCounters(state) {
  const res = await request(`${state.router.istiod.monitoringUrl}/metrics`, { timeoutMs: 5000 });
  if (res.status !== 200) throw new Error(`istiod's /metrics answered ${res.status}`);
  const values = sumSeries(res.body.toString('utf8'), Object.values(PUSH_SERIES));
  return Object.fromEntries(Object.entries(PUSH_SERIES).map(([key, name]) => [key, values[name] ?? 0]));
}

/** The pushes between two readings: { count, pushMs } (mean time of one push), pure. */
function pushesBetween(before, after) {
  const timed = after.pushesTimed - before.pushesTimed;
  return {
    count: after.pushes - before.pushes,
    pushMs: timed > 0 ? Number((((after.pushSeconds - before.pushSeconds) / timed) * 1000).toFixed(2)) : null,
  };
}

/**
 * Measures admission over `samples` HTTPRoutes, one after another, then (unless `endpointChange`
 * is false) an endpoint change; writes and resolves the figures (<labDir>/admission.json).
 */
async function measureAdmission(state, { samples = 5, endpointChange = true, log = () => {}, signal } = {}) {
  const client = adminClient(state.labDir);
  const before = await pushCounters(state);
  const runs = [];
  for (let i = 1; i <= samples; i++) {
    const name = `${PROBE_PREFIX}${Date.now().toString(36)}-${i}`;
    const run = await measureOneRoute(state, client, name, { signal });
    log(
      `  HTTPRoute ${i}/${samples}: accepted after ${run.admittedMs} ms, first 200 after ${run.firstOkMs} ms`,
    );
    runs.push(run);
  }
  const endpoint = await endpointChangeIfAny(state, gatewayEndpoints(client), {
    endpointChange,
    timeoutMs: TIMEOUT_MS,
    signal,
    log,
  });
  const pushes = pushesBetween(before, await pushCounters(state));
  const memory = {
    envoy: megabytes(rssBytes(state.router.pid)),
    istiod: megabytes(rssBytes(state.router.istiod.pid)),
  };
  const result = {
    measuredAt: new Date().toISOString(),
    router: `Envoy ${state.router.envoy.version}, istiod ${state.router.envoy.istio}`,
    waitsFor: "istiod's push to Envoy (xDS)",
    // The routes Envoy served meanwhile (LAB_ROUTES).
    routes: state.routes.length + (state.scaleRoutes ? state.scaleRoutes.count : 0),
    pushes,
    memoryMb: memory,
    samples,
    admitted: summarize(runs.map((r) => r.admittedMs)),
    firstOk: summarize(runs.map((r) => r.firstOkMs)),
    endpoint,
  };
  result.details = [
    `istiod pushed ${pushes.count} xDS updates meanwhile, ${pushes.pushMs ?? '–'} ms each (its own /metrics); ` +
      `Envoy ${memory.envoy ?? '–'} MB, istiod ${memory.istiod ?? '–'} MB resident`,
  ];
  writeLastMeasured(state.labDir, result);
  return result;
}

/** lab:status's view: istiod's verdict on each HTTPRoute and TLSRoute, and the last measured figures. */
async function routeAdmissions(state) {
  const client = adminClient(state.labDir);
  const routes = [];
  for (const [kind, label] of [
    ['httproutes', 'HTTPRoute'],
    ['tlsroutes', 'TLSRoute'],
  ]) {
    try {
      const list = await client.get(routesPath(kind));
      const scale = list.items.filter((r) => r.metadata.labels?.[SCALE_LABEL]);
      for (const route of list.items.filter((r) => !scale.includes(r))) {
        routes.push({ name: `${label} ${route.metadata.name}`, ...routeVerdict(route) });
      }
      // LAB_ROUTES's further ones in one row: all accepted, or the first refusal.
      if (scale.length) {
        const verdicts = scale.map(routeVerdict);
        const refused = verdicts.find((v) => v.rejected);
        routes.push({
          name: `${scale.length} further ${label}s (LAB_ROUTES)`,
          admitted: verdicts.every((v) => v.admitted),
          rejected: Boolean(refused),
          reason: refused?.reason ?? null,
          host: `${scale[0].spec.hostnames?.[0]} …`,
        });
      }
    } catch (err) {
      routes.push({ name: label, error: `API: ${err.message}` });
    }
  }
  return {
    title: "Route admission (istiod's status on each of the Gateway's routes):",
    routes,
    lastMeasured: readLastMeasured(state.labDir),
  };
}

module.exports = { measureAdmission, routeAdmissions, routeVerdict, pushesBetween, admissionProbeHttpRoute };
