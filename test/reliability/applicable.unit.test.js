'use strict';
// A scenario the lab's router backend declares it cannot take is skipped with the backend's reason;
// so are those for pods on a lab of processes, and the reverse; on the template lab the rest run.
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

const PODS_ONLY = ['pod-delete', 'redis-pod-delete'];
const names = (list) => list.map((s) => s.name);

test('the template lab runs every scenario but the pods ones; the real router also skips exhaustion, with why', () => {
  const template = applicable(SCENARIOS, { router: { kind: 'template' } });
  expect(names(template.skipped)).toEqual(PODS_ONLY);
  expect(template.skipped[0].why).toMatch(/runs no pods \(LAB_ROUTER=openshift LAB_PODS=yes does\)/);
  // lab.json from before the kind was recorded: the template router.
  expect(names(applicable(SCENARIOS, { router: {} }).skipped)).toEqual(PODS_ONLY);
  const real = applicable(SCENARIOS, { router: { kind: 'openshift' } });
  expect(real.skipped).toContainEqual({
    name: 'exhaustion',
    why: ROUTER_KINDS.openshift.unsupported.exhaustion,
  });
  expect(names(real.run)).toEqual(
    names(SCENARIOS).filter((n) => n !== 'exhaustion' && !PODS_ONLY.includes(n)),
  );
});

test('a lab with pods runs the pods scenarios, and names them where it skips their processes forms', () => {
  const pods = applicable(SCENARIOS, { router: { kind: 'openshift', node: {} } });
  expect(names(pods.run)).toEqual(['router-reload', ...PODS_ONLY, 'hostile']);
  expect(pods.skipped.find((s) => s.name === 'durability').why).toMatch(/redis-pod-delete is its pods form/);
});
