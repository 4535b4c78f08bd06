'use strict';
// Which scenarios do not apply to the real router's lab (LAB_ROUTER=openshift), and why: each
// relies on something only the template lab has. `npm run reliability` skips them, saying so.
const NOT_WITH_REAL_ROUTER = {
  exhaustion:
    "it lowers the router's maxconn by reloading; the real router's is set at lab:up (LAB_MAXCONN), as an IngressController's",
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
