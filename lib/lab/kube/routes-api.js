'use strict';
// Routes through the API: the router's verdict on each (status.ingress[].conditions), and
// creating or deleting one, as `oc` would.
const { NAMESPACE } = require('../common/routes');

const routesPath = (namespace = NAMESPACE) => `/apis/route.openshift.io/v1/namespaces/${namespace}/routes`;

/**
 * The router's verdict on a Route: { admitted, rejected, reason, message, host }. Neither admitted
 * nor rejected while no router has written its status yet.
 */
async function routeAdmission(client, name, { namespace } = {}) {
  const route = await client.get(`${routesPath(namespace)}/${name}`);
  const ingress = route.status?.ingress || [];
  const condition = ingress.flatMap((i) => i.conditions || []).find((c) => c.type === 'Admitted');
  return {
    admitted: condition?.status === 'True',
    rejected: condition?.status === 'False',
    reason: condition?.reason || null,
    message: condition?.message || null,
    host: ingress[0]?.host || route.spec?.host || null,
  };
}

/**
 * The status a router writes when it admits a Route served at `host` (openshift-router's
 * recordIngressCondition; the host it made from ROUTER_SUBDOMAIN when the spec has none):
 * `identity` is { routerName, canonicalHostname }. A router that finds it already there writes
 * nothing, as a restarted router pod does for the Routes its predecessor admitted.
 */
function admittedStatus(
  { host, wildcardPolicy = 'None' },
  { routerName, canonicalHostname },
  now = new Date(),
) {
  return {
    ingress: [
      {
        host,
        routerName,
        routerCanonicalHostname: canonicalHostname,
        wildcardPolicy,
        // metav1.Time: RFC 3339 in whole seconds.
        conditions: [
          { type: 'Admitted', status: 'True', lastTransitionTime: now.toISOString().replace(/\.\d+Z$/, 'Z') },
        ],
      },
    ],
  };
}

module.exports = { routesPath, routeAdmission, admittedStatus };
