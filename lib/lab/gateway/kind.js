'use strict';
// What the lab knows of the Gateway API's data path before loading it (LAB_ROUTER=gateway): plain
// data, required by the knobs and by setup before any npm package is installed. Its behaviour is
// ./backend.js.
const { ENVOY, ISTIO } = require('../../setup/gateway-tools');

const WHY_NOT_YET =
  'it is not built for the Gateway yet: the lab measures what Envoy costs per request, not its changes (lib/lab/gateway/README.md)';

module.exports = {
  kind: 'gateway',
  title:
    'the Gateway API as OpenShift implements it: Envoy configured by istiod, against a local API server (root)',
  /** `npm run setup -- --for <setupFor>` builds what it runs; `tools` must be there to start it. */
  setupFor: 'openshift',
  tools: ['k6', 'redis-server', 'openssl', 'kube-apiserver', 'etcd', 'kubectl', 'pilot-discovery', 'envoy'],
  /** What the Gateway serves: every termination (HTTPRoutes, a BackendTLSPolicy, a TLSRoute). */
  terminations: ['http', 'edge', 'passthrough', 'reencrypt'],
  /**
   * LAB_ROUTES's further routes: HTTPRoutes only. A TLSRoute attaches only to a listener whose
   * hostname it matches: a listener per passthrough host, and a Gateway has at most 64.
   */
  scaleTerminations: ['http', 'edge', 'reencrypt'],
  versions: { envoy: ENVOY.version, istio: ISTIO.version },
  /** The API server, etcd, istiod and Envoy's admin, on free loopback ports. */
  extraPorts: [
    'api',
    'etcdClient',
    'etcdPeer',
    'envoyAdmin',
    'istiodGrpc',
    'istiodHttp',
    'istiodWebhook',
    'istiodMonitoring',
  ],
  /** Knobs beyond the shared ones that define such a lab (a running lab is reused only on a match). */
  fingerprintKnobs: ['overlay'],
  /** What this lab cannot do yet, and why: the lab and its commands skip or refuse it, saying so. */
  unsupported: {
    ...Object.fromEntries(
      [
        'reload-overrides',
        'reload-without-handover',
        'reload-exclude',
        'rollout',
        'router-reload',
        'endpoints',
        'exhaustion',
      ].map((operation) => [operation, WHY_NOT_YET]),
    ),
    'route-scale':
      "its phases are the router's reloads, which Envoy does not have: measure a route count with " +
      'LAB_ROUTES=N npm run lab:up, then npm run lab:admission and npm run matrix',
  },
};
