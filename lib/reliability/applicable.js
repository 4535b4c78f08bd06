'use strict';
// Which scenarios the lab's router can take, and why not: a backend declares what it cannot do
// (lib/lab/*-router/kind.js `unsupported`, e.g. the real router's maxconn is set at lab:up, so
// exhaustion cannot lower it). `npm run reliability` skips those, saying so.
const { unsupportedOn } = require('../lab/common/router-kinds');

/** The scenarios that run on the lab in `state`, and the others with why: { run, skipped }. */
function applicable(scenarios, state) {
  const why = (s) => unsupportedOn(state.router, s.name);
  return {
    run: scenarios.filter((s) => !why(s)),
    skipped: scenarios.filter(why).map((s) => ({ name: s.name, why: why(s) })),
  };
}

module.exports = { applicable };
