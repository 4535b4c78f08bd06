'use strict';
// LAB_ROUTES=N through the Gateway: the N - 4 more routes (common/scale-routes.js) as HTTPRoutes,
// re-encrypt's with a BackendTLSPolicy, each to a Service of its own with the instances as its
// endpoints; no passthrough among them (./kind.js scaleTerminations says why).
const { ensure } = require('../kube/api');
const { publishEndpoint, inBatches } = require('../kube/bootstrap');
const { scaleManifests, readBase, serviceHost, SCALE_LABEL } = require('../common/scale-routes');
const { NAMESPACE } = require('../common/routes');
const { probeRoute } = require('../common/health');
const { waitUntil } = require('../common/stack');
const { routeVerdict } = require('./admission');
/** Each further route marks its answers: the component's catch-all HTTPRoute answers every host. */
const ROUTE_HEADER = 'x-router-lab-route';
const GROUP = '/apis/gateway.networking.k8s.io/v1';

/** A further route's HTTPRoute (and re-encrypt's BackendTLSPolicy), on the Gateway `gateway`. */
function scaleObjects(route, gateway) {
  const reencrypt = route.termination === 'reencrypt';
  const parent = (sectionName) => ({ name: gateway.name, namespace: gateway.namespace, sectionName });
  const labels = { [SCALE_LABEL]: 'true' };
  const httpRoute = {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: route.name, namespace: NAMESPACE, labels },
    spec: {
      parentRefs: route.termination === 'http' ? [parent('http')] : [parent('https')],
      hostnames: [route.host],
      rules: [
        {
          filters: [
            {
              type: 'ResponseHeaderModifier',
              responseHeaderModifier: { add: [{ name: ROUTE_HEADER, value: route.name }] },
            },
          ],
          backendRefs: [{ name: route.name, port: reencrypt ? 8443 : 8080 }],
        },
      ],
    },
  };
  if (!reencrypt) return [httpRoute];
  const policy = {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'BackendTLSPolicy',
    metadata: { name: route.name, namespace: NAMESPACE, labels },
    spec: {
      targetRefs: [{ group: '', kind: 'Service', name: route.name, sectionName: 'https' }],
      validation: {
        caCertificateRefs: [{ group: '', kind: 'ConfigMap', name: 'data-service-ca' }],
        hostname: serviceHost(route),
      },
    },
  };
  return [httpRoute, policy];
}

/** Each further route's Service, its endpoints (the instances, no Pod) and its Gateway API objects. */
async function createScaleRoutes(admin, routes, instances, { gateway }) {
  const base = readBase();
  await inBatches(routes, async (route) => {
    const [, service] = scaleManifests(route, { base });
    await ensure(admin, `/api/v1/namespaces/${NAMESPACE}/services`, service);
    for (const instance of instances)
      await publishEndpoint(admin, instance, { services: [route.name], pod: null });
    for (const object of scaleObjects(route, gateway)) {
      const kind = object.kind === 'HTTPRoute' ? 'httproutes' : 'backendtlspolicies';
      await ensure(admin, `${GROUP}/namespaces/${NAMESPACE}/${kind}`, object);
    }
  });
}

/** Whether `route` answers 200 through Envoy with its own header: istiod has pushed it. */
const servedByItself = async (route, { labCA }) =>
  (await probeRoute(route, { labCA })).headers?.[ROUTE_HEADER] === route.name;

/**
 * Waits until istiod has accepted every further HTTPRoute, then until the last of each termination
 * serves through Envoy: resolves { admittedMs, servingMs } from the start.
 */
async function waitScaleRoutesServing(admin, routes, { labCA, signal }) {
  const started = Date.now();
  const timeoutMs = 60000 + 100 * routes.length;
  await waitUntil(
    async () => {
      const list = await admin.get(
        `${GROUP}/namespaces/${NAMESPACE}/httproutes?labelSelector=${encodeURIComponent(`${SCALE_LABEL}=true`)}`,
      );
      return list.items.filter((r) => routeVerdict(r).admitted).length >= routes.length;
    },
    { timeoutMs, what: `istiod accepting the ${routes.length} further HTTPRoutes`, signal },
  );
  const admittedMs = Date.now() - started;
  const last = Object.values(Object.fromEntries(routes.map((r) => [r.termination, r])));
  await waitUntil(
    async () => (await Promise.all(last.map((r) => servedByItself(r, { labCA })))).every(Boolean),
    {
      timeoutMs,
      what: 'the last further HTTPRoute of each termination answering through Envoy',
      signal,
    },
  );
  return { admittedMs, servingMs: Date.now() - started };
}

module.exports = { scaleObjects, createScaleRoutes, waitScaleRoutesServing };
