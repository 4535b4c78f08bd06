'use strict';
// The lab's four Routes, named and addressed as OpenShift names them, with what each asks of the
// router read from the same Route manifests `oc apply -k overlays/...` sends: the lab and a
// cluster run the same router settings.
const fs = require('node:fs');
const path = require('node:path');
const yaml = require('../../core/dependency').lazyDependency('js-yaml');
const { ROOT } = require('../../core/paths');
const cells = require('../../../k6/lib/cells');

const APPS_DOMAIN = cells.LAB_APPS_DOMAIN;
const NAMESPACE = cells.DEFAULT_NAMESPACE;
/** Where OpenShift runs its routers (and the lab its IngressController's objects). */
const ROUTER_NAMESPACE = 'openshift-ingress';
const { SERVICE_NAME } = cells;
/** The in-cluster service name the serving certificate is for (service-ca style). */
const SERVICE_HOST = cells.serviceHost(NAMESPACE);

/** termination -> OpenShift's backend name prefix (genBackendNamePrefix in the router). */
const BACKEND_PREFIX = {
  http: 'be_http',
  edge: 'be_edge_http',
  passthrough: 'be_tcp',
  reencrypt: 'be_secure',
};

const { TERMINATIONS } = cells;

const ANNOTATION = 'haproxy.router.openshift.io/';

/** The manifest of a termination's Route: overlays/components/route-<termination>/route.yaml. */
function routeManifestPath(termination) {
  return path.join(ROOT, 'overlays', 'components', `route-${termination}`, 'route.yaml');
}

/** The router settings a Route manifest gives: { insecurePolicy, timeout, disableCookies, balance }. */
function routeSettings(termination, file = routeManifestPath(termination)) {
  const route = yaml.load(fs.readFileSync(file, 'utf8'));
  const found = cells.routeTermination(route);
  if (route?.kind !== 'Route' || found !== termination) {
    throw new Error(`${file} is not the ${termination} Route (kind ${route?.kind}, termination ${found})`);
  }
  const annotations = route.metadata.annotations ?? {};
  return {
    insecurePolicy: route.spec.tls ? (route.spec.tls.insecureEdgeTerminationPolicy ?? 'None') : null,
    timeout: annotations[`${ANNOTATION}timeout`] ?? null,
    disableCookies: annotations[`${ANNOTATION}disable_cookies`] === 'true',
    balance: annotations[`${ANNOTATION}balance`] ?? null,
  };
}

/** The four routes with their hosts, backends and URLs for the given router ports. */
function labRoutes({ httpPort, httpsPort }) {
  return TERMINATIONS.map((termination) => {
    const name = cells.routeName(termination);
    const host = cells.routeHost(termination, NAMESPACE, APPS_DOMAIN);
    const port = cells.routeScheme(termination) === 'https' ? httpsPort : httpPort;
    return {
      name,
      termination,
      host,
      backend: `${BACKEND_PREFIX[termination]}:${NAMESPACE}:${name}`,
      url: cells.routeUrl(termination, host, port),
      ...routeSettings(termination),
    };
  });
}

module.exports = {
  APPS_DOMAIN,
  ROUTER_NAMESPACE,
  NAMESPACE,
  SERVICE_NAME,
  SERVICE_HOST,
  BACKEND_PREFIX,
  TERMINATIONS,
  routeManifestPath,
  routeSettings,
  labRoutes,
};
