'use strict';
// The cluster commands without a cluster: --help, option errors, the clear message when oc is
// missing, and the k6 objects cluster:k6 renders (the pure logic: options.unit.test.js).
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');
const { parseK6: parse } = require('../../lib/cluster/options');
const { renderObjects } = require('../../lib/cluster/k6-testrun');
const { build } = require('../../lib/cluster/kustomize');
const { validate } = require('../../lib/cluster/kubeconform');
const yaml = require('js-yaml');

const SCRIPTS = ['deploy', 'teardown', 'k6'];
const run = (script, args, env = process.env) =>
  spawnSync(process.execPath, [path.join(ROOT, 'bin', `cluster-${script}.js`), ...args], {
    encoding: 'utf8',
    env,
    timeout: 30000,
  });

test.each(SCRIPTS)('%s --help prints its usage and exits 0', (script) => {
  const r = run(script, ['--help']);
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(new RegExp(`^Usage: npm run cluster:${script}`));
});

test.each(SCRIPTS)('%s rejects an unknown option by name (a usage error: exit 2)', (script) => {
  const r = run(script, ['--no-such-option']);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/--no-such-option/);
});

test.each(['deploy', 'teardown'])('%s says how to get oc when it is not on PATH', (script) => {
  // A PATH with node's own directory only: no oc anywhere (.tools/bin has none either).
  const r = run(script, [], { ...process.env, PATH: path.dirname(process.execPath) });
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/'oc' is not on PATH/);
});

test('k6 without oc asks kubectl who is logged in, and says how to log in when no one is', () => {
  // No oc: the pinned kubectl in .tools/bin stands in; its kubeconfig names no cluster.
  const env = { ...process.env, PATH: path.dirname(process.execPath), KUBECONFIG: '/nonexistent' };
  const r = run('k6', [], env);
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/not logged in to a cluster.*with kubectl, set KUBECONFIG/);
});

test('deploy refuses router tuning on the Developer Sandbox overlay, before touching a cluster', () => {
  const r = run('deploy', ['--overlay', 'sandbox', '--router-tuning']);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/cluster-admin/);
});

test('deploy --router-tuning says what it changes in the shared router and asks for --yes, before touching a cluster', () => {
  const r = run('deploy', ['--router-tuning']);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(
    /--router-tuning changes the cluster's shared default router: IngressController 'default' .* spec\.routeSelector .*Run again with --yes/,
  );
  expect(run('deploy', ['--yes']).stderr).toMatch(/--yes .*--router-tuning/);
});

test('deploy names the overlays it knows', () => {
  const r = run('deploy', ['--overlay', 'edgy']);
  expect(r.stderr).toMatch(
    /--overlay must be one of http, edge, passthrough, reencrypt, all, sandbox, got "edgy"/,
  );
});

test('cluster:k6 renders only the k6 objects, with the cell, targets and run id filled in', () => {
  const opts = parse([
    '--parallelism',
    '8',
    '--termination',
    'passthrough',
    '--page-size',
    '4k',
    '--vus',
    '512',
    '--insecure',
    '--separate',
  ]);
  const urls = [{ envName: 'URL_PASSTHROUGH', url: 'https://p.shard.example' }];
  const objects = renderObjects(opts, urls, 'run-abc', { kustomize: build });
  expect(objects.map((o) => `${o.kind}/${o.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`).sort()).toEqual([
    'ConfigMap/k6-scripts',
    'ConfigMap/k6-trusted-ca',
    'PersistentVolumeClaim/k6-results',
    'TestRun/router-matrix',
  ]);
  const tr = objects.find((o) => o.kind === 'TestRun');
  expect(tr.spec).toMatchObject({ parallelism: 8, separate: true });
  const env = tr.spec.runner.env;
  expect(new Set(env.map((e) => e.name)).size).toBe(env.length); // replaced, not duplicated
  const value = Object.fromEntries(env.map((e) => [e.name, e.value]));
  expect(value).toMatchObject({
    TERMINATION: 'passthrough',
    PAGE_SIZE: '4k',
    VUS: '512',
    URL_PASSTHROUGH: 'https://p.shard.example',
    INSECURE_SKIP_TLS_VERIFY: 'true',
    SUMMARY_PATH: '/results/run-abc-$(POD_NAME).json',
    // An h1 cell: k6 kept to HTTP/1.1 even where the router offers h2.
    GODEBUG: 'http2client=0',
  });
  // A closed model unless --rate: then the total, which each runner scales to its segment.
  expect(value.RATE).toBeUndefined();
  const rated = renderObjects(parse(['--parallelism', '2', '--rate', '5000']), urls, 'run-r', {
    kustomize: build,
  });
  const ratedEnv = rated.find((o) => o.kind === 'TestRun').spec.runner.env;
  expect(ratedEnv.find((e) => e.name === 'RATE')).toEqual({ name: 'RATE', value: '5000' });
  // $(POD_NAME) only expands if POD_NAME comes first.
  expect(env.findIndex((e) => e.name === 'POD_NAME')).toBeLessThan(
    env.findIndex((e) => e.name === 'SUMMARY_PATH'),
  );
  expect(validate(objects.map((o) => yaml.dump(o)).join('---\n')).ok).toBe(true);
}, 60000);
