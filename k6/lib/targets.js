'use strict';
// Where the scripts send traffic: the local lab (default) or a cluster. CommonJS: the k6 scripts
// import it, and the Node runner resolves a cluster target with it too.
const cells = require('./cells.js');
const { envEnum, envInt, envString } = require('./config.js');

//   lab:     route hosts under APPS_DOMAIN (apps.lab.localhost) are mapped to 127.0.0.1 with
//            k6's `hosts` option, on LAB_HTTP_PORT / LAB_HTTPS_PORT; no /etc/hosts edits.
//   cluster: -e APPS_DOMAIN=apps.example.com -e NAMESPACE=router-lab (hosts follow OpenShift's
//            <route>-<namespace>.<apps domain>), or explicit -e URL_EDGE=https://… per route;
//            -e ROUTER_ADDRESS=10.0.0.5 connects to that router instead of resolving the hosts.
const URL_VARS = Object.fromEntries(cells.TERMINATIONS.map((t) => [t, cells.urlVariable(t)]));

function parseUrl(name, value) {
  const match = /^(https?):\/\/([^/:]+)(:\d+)?(\/.*)?$/.exec(value);
  if (!match) throw new Error(`${name} must be an http(s) URL such as https://host:443, not '${value}'`);
  return { scheme: match[1], host: match[2], base: `${match[1]}://${match[2]}${match[3] || ''}` };
}

/**
 * { mode, appsDomain, namespace, hosts, routes: { http: { termination, url, host, scheme } … } }
 * `hosts` is the k6 `hosts` option (for a cluster, empty unless ROUTER_ADDRESS: DNS resolves the routes).
 */
function resolveTargets(env) {
  const explicit = cells.TERMINATIONS.some((t) => envString(env, URL_VARS[t], undefined) !== undefined);
  const named = envString(env, 'APPS_DOMAIN', undefined) !== undefined;
  const mode = envEnum(env, 'TARGET', ['lab', 'cluster'], explicit || named ? 'cluster' : 'lab');
  const appsDomain = envString(env, 'APPS_DOMAIN', mode === 'lab' ? cells.LAB_APPS_DOMAIN : undefined);
  const namespace = envString(env, 'NAMESPACE', cells.DEFAULT_NAMESPACE);
  const httpPort = envInt(env, 'LAB_HTTP_PORT', 9080, { min: 1, max: 65535 });
  const httpsPort = envInt(env, 'LAB_HTTPS_PORT', 9443, { min: 1, max: 65535 });
  const address = envString(env, 'LAB_ADDRESS', '127.0.0.1');
  // A cluster's router reached at a known address rather than through DNS (or the lab as a cluster).
  const routerAddress = mode === 'cluster' ? envString(env, 'ROUTER_ADDRESS', undefined) : undefined;

  const routes = {};
  const hosts = {};
  for (const termination of cells.TERMINATIONS) {
    const override = envString(env, URL_VARS[termination], undefined);
    let route;
    if (override) {
      route = parseUrl(URL_VARS[termination], override);
    } else {
      if (!appsDomain) continue; // requireRoute() says what is missing if a script needs it
      const host = cells.routeHost(termination, namespace, appsDomain);
      const scheme = cells.routeScheme(termination);
      const port = mode === 'lab' ? (scheme === 'http' ? httpPort : httpsPort) : null;
      route = { scheme, host, base: cells.routeUrl(termination, host, port) };
    }
    routes[termination] = { termination, url: route.base, host: route.host, scheme: route.scheme };
    if (mode === 'lab') hosts[route.host] = address;
    else if (routerAddress) hosts[route.host] = routerAddress;
  }
  return { mode, appsDomain, namespace, hosts, routes };
}

/** The route of a termination, or an error that says which variable would name it. */
function requireRoute(targets, termination) {
  const route = targets.routes[termination];
  if (!route) {
    throw new Error(
      `no URL for the ${termination} route: set APPS_DOMAIN (and NAMESPACE) or ${URL_VARS[termination]}`,
    );
  }
  return route;
}

/**
 * Passthrough hands the client the service's own certificate (on OpenShift the service-ca cert,
 * issued for <service>.<namespace>.svc), which can never match the route host: the only route
 * where verification has to be skipped. Edge and re-encrypt are verified against the trust
 * store, which for the lab is the lab CA passed as SSL_CERT_FILE.
 */
function needsInsecureTls(termination) {
  return termination === 'passthrough';
}

module.exports = { URL_VARS, resolveTargets, requireRoute, needsInsecureTls };
