// One request per Route, with checks: is every termination wired the way OpenShift wires it?
//   SSL_CERT_FILE=.lab/certs/lab-ca.crt k6 run k6/smoke.js
import http from 'k6/http';
import { check } from 'k6';
import cells from './lib/cells.js';
import { envList, envString } from './lib/config.js';
import { needsInsecureTls, requireRoute, resolveTargets } from './lib/targets.js';

// Env: ROUTES (comma list, default all four), plus the target variables of lib/targets.js.
// k6's insecureSkipTLSVerify is global, so when passthrough is in ROUTES (its service
// certificate cannot match the route host) verification is off for the whole run; run with
// -e ROUTES=http,edge,reencrypt to verify the router's certificate against SSL_CERT_FILE.
const routes = envList(__ENV, 'ROUTES', cells.TERMINATIONS);
for (const name of routes) {
  if (!cells.TERMINATIONS.includes(name)) {
    throw new Error(`ROUTES: '${name}' is not one of ${cells.TERMINATIONS.join(', ')}`);
  }
}
const targets = resolveTargets(__ENV);
for (const name of routes) requireRoute(targets, name);

export const options = {
  vus: 1,
  iterations: 1,
  hosts: targets.hosts,
  insecureSkipTLSVerify: routes.some(needsInsecureTls),
  thresholds: { checks: ['rate==1'] },
};

// Where TLS ends decides what the service sees: plain HTTP behind http and edge, TLS behind
// passthrough (the client's own connection) and re-encrypt (the router's second connection).
const SERVICE_SEES_TLS = { http: false, edge: false, passthrough: true, reencrypt: true };

export default function () {
  for (const termination of routes) {
    const route = requireRoute(targets, termination);
    const res = http.get(`${route.url}/api/whoami`, { tags: { route: termination } });
    let body = {};
    try {
      body = res.json();
    } catch {
      // checked below
    }
    check(
      res,
      {
        [`${termination}: 200`]: (r) => r.status === 200,
        [`${termination}: an instance answered`]: () => typeof body.instance === 'string',
        [`${termination}: service ${SERVICE_SEES_TLS[termination] ? 'sees' : 'does not see'} TLS`]: () =>
          body.tls === SERVICE_SEES_TLS[termination],
        [`${termination}: Server-Timing present`]: (r) => /app;dur=/.test(r.headers['Server-Timing'] || ''),
      },
      { route: termination },
    );
  }
  if (routes.includes('edge')) {
    // Edge routes redirect plain HTTP to HTTPS, like insecureEdgeTerminationPolicy: Redirect.
    const edge = requireRoute(targets, 'edge');
    const plain = edge.url.replace(/^https:/, 'http:').replace(/:\d+$/, '');
    const httpPort = envString(__ENV, 'LAB_HTTP_PORT', '9080');
    const res = http.get(`${plain}${targets.mode === 'lab' ? `:${httpPort}` : ''}/api/whoami`, {
      redirects: 0,
      tags: { route: 'edge-redirect' },
    });
    check(res, { 'edge: plain HTTP is redirected': (r) => r.status === 301 || r.status === 302 });
  }
}
