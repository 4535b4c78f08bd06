'use strict';
// What the lab knows of the template router before loading it (LAB_ROUTER=template): plain data,
// required by the knobs and by setup before any npm package is installed. Its behaviour is
// ./backend.js.
module.exports = {
  kind: 'template',
  title: 'HAProxy on a configuration the lab renders like the router',
  /** `npm run setup -- --for <setupFor>` builds what it runs; `tools` must be there to start it. */
  setupFor: 'lab',
  tools: ['k6', 'haproxy', 'redis-server', 'openssl'],
  /** LAB_OPENSHIFT_RELEASE's default: whose Intermediate TLS profile the rendering follows. */
  defaultRelease: '4.22',
  /** The releases it can follow: any whose TLS profile the lab knows (null: no limit of its own). */
  releases: null,
  /** Ports beyond the router's http, https and stats. */
  extraPorts: [],
  /** Knobs beyond the shared ones that define such a lab (a running lab is reused only on a match). */
  fingerprintKnobs: ['sniHop'],
  /** What this router cannot do, and why: the lab and its commands skip or refuse it, saying so. */
  unsupported: {
    admission: 'it has no API server to admit Routes: start the lab with LAB_ROUTER=openshift',
    'route-scale': 'it measures admission and reloads through the API, which only the real router has',
  },
};
