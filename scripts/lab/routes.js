'use strict';
// The lab's four Routes, named and addressed the way OpenShift names them: host
// <route>-<namespace>.<apps domain>, backend <prefix>:<namespace>:<route>.

const APPS_DOMAIN = 'apps.lab.localhost';
const NAMESPACE = 'router-lab';
const SERVICE_NAME = 'data-service';
/** The in-cluster service name the serving certificate is for (service-ca style). */
const SERVICE_HOST = `${SERVICE_NAME}.${NAMESPACE}.svc`;

/** termination -> OpenShift's backend name prefix (genBackendNamePrefix in the router). */
const BACKEND_PREFIX = {
  http: 'be_http',
  edge: 'be_edge_http',
  passthrough: 'be_tcp',
  reencrypt: 'be_secure',
};

const TERMINATIONS = ['http', 'edge', 'passthrough', 'reencrypt'];

function routeHost(name) {
  return `${name}-${NAMESPACE}.${APPS_DOMAIN}`;
}

/** The four routes with their hosts, backends and URLs for the given router ports. */
function labRoutes({ httpPort, httpsPort }) {
  return TERMINATIONS.map((termination) => {
    const name = `${SERVICE_NAME}-${termination}`;
    const host = routeHost(name);
    const secure = termination !== 'http';
    return {
      name,
      termination,
      host,
      backend: `${BACKEND_PREFIX[termination]}:${NAMESPACE}:${name}`,
      url: secure ? `https://${host}:${httpsPort}` : `http://${host}:${httpPort}`,
      // Edge routes are insecureEdgeTerminationPolicy: Redirect (plain HTTP gets a 302 to https).
      insecurePolicy: termination === 'edge' ? 'Redirect' : termination === 'http' ? null : 'None',
    };
  });
}

module.exports = {
  APPS_DOMAIN,
  NAMESPACE,
  SERVICE_NAME,
  SERVICE_HOST,
  BACKEND_PREFIX,
  TERMINATIONS,
  routeHost,
  labRoutes,
};
