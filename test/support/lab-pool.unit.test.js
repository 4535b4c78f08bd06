'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { poolKey, poolRoot, useExclusively, rememberEnv, ROOT_ENV } = require('./lab-pool');

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

test('a shared lab is one user’s at a time: the next waits for the release, or gives up after its wait', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-pool-'));
  try {
    const release = await useExclusively(dir);
    await expect(useExclusively(dir, { waitMs: 1000 })).rejects.toMatchObject({ code: 'ELOCKED' });
    const order = [];
    const next = useExclusively(dir).then((r) => order.push('next') && r);
    setTimeout(() => order.push('released') && release(), 300);
    await (
      await next
    )();
    expect(order).toEqual(['released', 'next']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every lab a test starts is recorded in the run’s root, once per LAB_DIR, for teardown and Ctrl-C', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-pool-'));
  try {
    const env = { [ROOT_ENV]: root };
    rememberEnv({ LAB_DIR: '/tmp/a', LAB_ROUTER: 'openshift' }, env);
    rememberEnv({ LAB_DIR: '/tmp/a', LAB_ROUTER: 'openshift', LAB_HTTP_PORT: '41000' }, env);
    rememberEnv({ LAB_DIR: '/tmp/b' }, env);
    const recorded = fs
      .readdirSync(path.join(root, 'labs'))
      .map((f) => JSON.parse(fs.readFileSync(path.join(root, 'labs', f))));
    expect(recorded.map((e) => e.LAB_DIR).sort()).toEqual(['/tmp/a', '/tmp/b']);
    expect(recorded.find((e) => e.LAB_DIR === '/tmp/a').LAB_HTTP_PORT).toBe('41000');
    // Without a run's root (Jest without its globalSetup) nothing is written.
    expect(() => rememberEnv({ LAB_DIR: '/tmp/c' }, {})).not.toThrow();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
