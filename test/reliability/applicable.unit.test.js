'use strict';
// A scenario the lab's router backend declares it cannot take is skipped with the backend's reason;
// on the template lab all run.
const { applicable } = require('../../lib/reliability/applicable');
const { SCENARIOS } = require('../../lib/reliability/run');
const { ROUTER_KINDS } = require('../../lib/lab/common/router-kinds');

test('every reason a backend gives for skipping a scenario says why', () => {
  const names = SCENARIOS.map((s) => s.name);
  for (const { unsupported } of Object.values(ROUTER_KINDS)) {
    for (const [, why] of Object.entries(unsupported).filter(([n]) => names.includes(n))) {
      expect(why).toMatch(/^it .{30,}/);
    }
  }
});

test('the template lab runs every scenario; the real router skips exhaustion, with why', () => {
  expect(applicable(SCENARIOS, { router: { kind: 'template' } })).toEqual({ run: SCENARIOS, skipped: [] });
  // lab.json from before the kind was recorded: the template router.
  expect(applicable(SCENARIOS, { router: {} }).skipped).toEqual([]);
  const real = applicable(SCENARIOS, { router: { kind: 'openshift' } });
  expect(real.skipped).toEqual([{ name: 'exhaustion', why: ROUTER_KINDS.openshift.unsupported.exhaustion }]);
  expect(real.run.map((s) => s.name)).toEqual(SCENARIOS.map((s) => s.name).filter((n) => n !== 'exhaustion'));
});
