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

module.exports = { routesPath, routeAdmission };
