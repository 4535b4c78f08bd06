'use strict';
// Which scenarios do not apply to the real router's lab (LAB_ROUTER=openshift), and why: each
// relies on something only the template lab has. `npm run reliability` skips them, saying so.
const NOT_WITH_REAL_ROUTER = {
  'router-reload':
    'it compares reloads with and without socket handover (-x); the real router always hands over',
  endpoints:
    "it times a drain against the template router's /readyz health checks; the real router takes endpoints from the API (npm run lab:admission measures that)",
  'redis-kill': 'it restarts Redis on loopback; with the real router Redis runs in the pod network',
  durability: 'it restarts Redis on loopback; with the real router Redis runs in the pod network',
  'redis-failover':
    'it drives the Redis Cluster on loopback; with the real router Redis runs in the pod network',
  hostile: 'it attacks the instances on loopback; with the real router they listen in the pod network',
  exhaustion:
    "it lowers the router's maxconn by reloading; the real router's is set at lab:up (LAB_MAXCONN), as an IngressController's",
  soak: "it samples the template router's process; the real router's HAProxy changes at every reload",
};

/** The scenarios that run on the lab in `state`, and the others with why: { run, skipped }. */
function applicable(scenarios, state) {
  if (state.router.kind !== 'openshift') return { run: scenarios, skipped: [] };
  return {
    run: scenarios.filter((s) => !NOT_WITH_REAL_ROUTER[s.name]),
    skipped: scenarios
      .filter((s) => NOT_WITH_REAL_ROUTER[s.name])
      .map((s) => ({ name: s.name, why: NOT_WITH_REAL_ROUTER[s.name] })),
  };
}

module.exports = { NOT_WITH_REAL_ROUTER, applicable };
