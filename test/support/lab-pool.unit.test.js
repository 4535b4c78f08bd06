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

test('a file that takes a shared lab down waits until Jest has reported its users; any other file does not', async () => {
  const { markDone, usersDone, USERS_ENV } = require('./lab-pool');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-pool-'));
  const env = {
    [ROOT_ENV]: root,
    [USERS_ENV]: JSON.stringify({ 'test/z.test.js': ['test/a.test.js', 'test/b.test.js'] }),
  };
  try {
    await usersDone('test/a.test.js', { env, waitMs: 0 });
    markDone('test/a.test.js', env);
    await expect(usersDone('test/z.test.js', { env, waitMs: 100, everyMs: 20 })).rejects.toThrow(
      'test/z.test.js takes a shared lab down, but after 0.1 s test/b.test.js still run',
    );
    const waiting = usersDone('test/z.test.js', { env, everyMs: 20 });
    setTimeout(() => markDone('test/b.test.js', env), 100);
    await waiting;
    // Without the pool (Jest run without its globalSetup), nobody waits.
    await usersDone('test/z.test.js', { env: { [USERS_ENV]: env[USERS_ENV] }, waitMs: 0 });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
