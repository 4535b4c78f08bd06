'use strict';
// What the lab knows of the real router before loading it (LAB_ROUTER=openshift): plain data,
// required by the knobs and by setup before any npm package is installed. Its behaviour is
// ./backend.js.
const { ROUTER_PINS } = require('../../setup/openshift-router-build');

module.exports = {
  kind: 'openshift',
  title: 'openshift-router itself, against a local API server, configured by kubectl apply -k (root)',
  /** `npm run setup -- --for <setupFor>` builds what it runs; `tools` must be there to start it. */
  setupFor: 'openshift',
  tools: ['k6', 'haproxy', 'redis-server', 'openssl', 'kube-apiserver', 'etcd', 'kubectl'],
  /** LAB_OPENSHIFT_RELEASE's default: the release whose router runs. */
  defaultRelease: '5.0',
  /** The releases it can run: those whose router setup builds. */
  releases: Object.keys(ROUTER_PINS),
  /** The HAProxy branch a release's router image ships: LAB_HAPROXY's default with this router. */
  haproxyBranch: (release) => ROUTER_PINS[release]?.haproxy ?? null, // checkRouterRelease refuses others
  /** The API server, etcd and the monitoring, on free loopback ports. */
  extraPorts: ['api', 'etcdClient', 'etcdPeer', 'prometheus', 'processExporter'],
  /** Knobs beyond the shared ones that define such a lab (a running lab is reused only on a match). */
  fingerprintKnobs: ['overlay', 'reloadIntervalS', 'hardStopAfterS', 'configManager', 'idleClose', 'pods'],
  /** What this router cannot do, and why: the lab and its commands skip or refuse it, saying so. */
  unsupported: {
    exhaustion:
      "it lowers the router's maxconn by reloading; the real router's is set at lab:up (LAB_MAXCONN), as an IngressController's",
    'reload-overrides':
      "the real router's settings are set at lab:up (LAB_* knobs); a reload here is a change through the API",
    'reload-without-handover':
      'the real router always hands its sockets over: there is nothing to compare it with',
  },
};
