'use strict';
// The router backends behind one interface (LAB_ROUTER): a map from kind to module, loaded when
// asked for. Callers ask the backend and never compare kinds (test/lab/routers.unit.test.js greps
// for such comparisons).
const { ROUTER_KINDS, DEFAULT_ROUTER, routerKind, unsupportedBy } = require('./common/router-kinds');

/**
 * The interface: each backend module exports these, beside the data of its kind.js (kind, title,
 * setupFor, tools, defaultRelease, extraPorts, fingerprintKnobs, unsupported).
 *
 * Starting (lab:up, lib/lab/up.js; `lab` is up's context, `opts` the LAB_* knobs):
 * - selectRoutes(routes, opts): the lab's Routes this router serves
 * - preflight(opts, haproxy): what stops it here, as error texts (empty when it can run)
 * - configure(lab): the configuration, before the backends start; returns `configured`
 * - start(lab, configured): resolves once every Route serves
 * - describe(lab, configured, { pid, alpn }): lab.json's `router`
 * A running lab (`state` is lab.json, `router` its `router`):
 * - reload(state, { overrides, exclude, restarted, handover, signal, log }): a new configuration
 *   serving; `exclude` drains instances out of it, `restarted` publishes them back as new pods
 * - endpointsViaReload: true when the router learns of a pod leaving from its endpoints (a
 *   rollout then withdraws each instance through reload) rather than from its health checks
 * - admission(state): each Route's admission now, or null for a router without one
 * - measureAdmission(state, options): admission latency (lab:admission)
 * - processes(router): what CPU and memory accounting sample for the router: a pid, or { tree: pid }
 *   for a router whose every child counts (as its pod's cgroup does)
 * - controlPlane(router): the pid of a control plane that runs apart from the router's pod (the
 *   Gateway's istiod), sampled beside it and reported apart; null where it is inside (openshift-router)
 * - counters(state): a reader of the router's own counters, (at) → a reading in the shape of
 *   haproxy/counters.js's, that the matrix calls while a cell runs
 * - servers(state): lab:status's view of the service's endpoints through the router: { title, rows:
 *   [{ backend, server, status }] }
 * - statusLines(router): lab:up's and lab:status's lines about it
 * - describeForResults(router): what results.json's environment.router adds for this kind
 * Its kind.js may also declare `scaleTerminations`: the terminations LAB_ROUTES's further routes
 * take (all four if it does not).
 */
const INTERFACE = {
  selectRoutes: 'function',
  preflight: 'function',
  configure: 'function',
  start: 'function',
  describe: 'function',
  reload: 'function',
  endpointsViaReload: 'boolean',
  admission: 'function',
  measureAdmission: 'function',
  processes: 'function',
  controlPlane: 'function',
  counters: 'function',
  servers: 'function',
  statusLines: 'function',
  describeForResults: 'function',
};

const BACKENDS = {
  template: () => require('./template-router/backend'),
  openshift: () => require('./openshift-router/backend'),
  gateway: () => require('./gateway/backend'),
};

/** The backend of `kind` (LAB_ROUTER): its kind.js data and its methods. Throws naming the kinds. */
function routerBackend(kind = DEFAULT_ROUTER) {
  const data = routerKind(kind);
  return { ...data, ...BACKENDS[data.kind]() };
}

/** The backend that runs a lab.json's (or a results.json environment's) `router`. */
const backendOf = (router) => routerBackend(router.kind || DEFAULT_ROUTER);

/** Throws the backend's reason when the router of `kind` cannot do `operation`. */
function requireSupport(kind, operation) {
  const why = unsupportedBy(kind, operation);
  if (why) throw new Error(`${operation} with LAB_ROUTER=${kind}: ${why}`);
}

module.exports = {
  INTERFACE,
  ROUTER_KINDS,
  DEFAULT_ROUTER,
  routerBackend,
  backendOf,
  unsupportedBy,
  requireSupport,
};
