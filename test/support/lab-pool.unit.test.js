'use strict';
const { poolKey, poolRoot, ROOT_ENV } = require('./lab-pool');

test('the same knobs in any order name the same lab; other knobs or values another', () => {
  const a = poolKey({ LAB_REPLICAS: '1', LAB_ROUTER: 'openshift' });
  expect(poolKey({ LAB_ROUTER: 'openshift', LAB_REPLICAS: '1' })).toBe(a);
  expect(a).toMatch(/^lab-[0-9a-f]{12}$/);
  expect(poolKey({ LAB_REPLICAS: '2', LAB_ROUTER: 'openshift' })).not.toBe(a);
  expect(poolKey({ LAB_REPLICAS: '1' })).not.toBe(a);
  expect(poolKey({})).not.toBe(poolKey({ LAB_REPLICAS: '1' }));
});

test('without the root globalSetup sets, there is no pool', () => {
  expect(poolRoot({})).toBeNull();
  expect(poolRoot({ [ROOT_ENV]: '/tmp/x' })).toBe('/tmp/x');
});
