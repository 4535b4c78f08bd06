'use strict';
// With the real router, a scenario that relies on the template lab is skipped with its reason; on
// the template lab all run.
const { applicable, NOT_WITH_REAL_ROUTER } = require('../../lib/reliability/real-router');
const { SCENARIOS } = require('../../lib/reliability/run');

test('each scenario the real router skips is a known one, with a reason', () => {
  for (const [name, why] of Object.entries(NOT_WITH_REAL_ROUTER)) {
    expect(SCENARIOS.map((s) => s.name)).toContain(name);
    expect(why).toMatch(/^it .{30,}/);
  }
});

test('the template lab runs every scenario; the real router skips each with why', () => {
  expect(applicable(SCENARIOS, { router: { kind: 'template' } })).toEqual({ run: SCENARIOS, skipped: [] });
  const real = applicable(SCENARIOS, { router: { kind: 'openshift' } });
  expect(real.skipped.map((s) => s.name)).toEqual(['exhaustion']);
  expect(real.run.map((s) => s.name)).toEqual(SCENARIOS.map((s) => s.name).filter((n) => n !== 'exhaustion'));
});
