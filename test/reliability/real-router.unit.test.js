'use strict';
// With the real router, every scenario that relies on the template lab is skipped with its reason;
// on the template lab all run.
const { applicable, NOT_WITH_REAL_ROUTER } = require('../../lib/reliability/real-router');
const { SCENARIOS } = require('../../lib/reliability/run');

test('every scenario is known to the real-router table, with a reason', () => {
  for (const s of SCENARIOS) expect(NOT_WITH_REAL_ROUTER[s.name]).toMatch(/^it .{30,}/);
});

test('the template lab runs every scenario; the real router skips each with why', () => {
  expect(applicable(SCENARIOS, { router: { kind: 'template' } })).toEqual({ run: SCENARIOS, skipped: [] });
  const real = applicable(SCENARIOS, { router: { kind: 'openshift' } });
  expect(real.run).toEqual([]);
  expect(real.skipped.map((s) => s.name)).toEqual(SCENARIOS.map((s) => s.name));
});
