'use strict';
// The cluster scripts' behaviour without a cluster: --help, option errors, and the clear message
// when oc is missing. Plus the pure logic they share (route URLs, option parsing).
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');
const { routeUrls } = require('../../lib/cluster/routes');
const { parseK6: parse } = require('../../lib/cluster/options');
const { renderObjects } = require('../../lib/cluster/k6-testrun');
const { durationSeconds } = require('../../k6/lib/config');
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

test.each(SCRIPTS)('%s says how to get oc when it is not on PATH', (script) => {
  // A PATH with node's own directory only: no oc anywhere (.tools/bin has none either).
  const r = run(script, [], { ...process.env, PATH: path.dirname(process.execPath) });
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/'oc' is not on PATH/);
});

test('deploy refuses router tuning on the Developer Sandbox overlay, before touching a cluster', () => {
  const r = run('deploy', ['--overlay', 'sandbox', '--router-tuning']);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/cluster-admin/);
});

test('deploy names the overlays it knows', () => {
  const r = run('deploy', ['--overlay', 'edgy']);
  expect(r.stderr).toMatch(
    /--overlay must be one of http, edge, passthrough, reencrypt, all, sandbox, got "edgy"/,
  );
});

describe('cluster:k6 options', () => {
  test('defaults and conversions', () => {
    const o = parse([]);
    expect(o).toMatchObject({
      parallelism: 4,
      termination: 'edge',
      vus: 128,
      durationSeconds: 60,
      timeout: 660,
    });
    expect(durationSeconds('5m')).toBe(300);
    expect(durationSeconds('1m30s')).toBe(90);
    expect(durationSeconds('forever')).toBeNull();
    expect(durationSeconds('5 minutes')).toBeNull();
  });

  test.each([
    [['--parallelism', '0'], /--parallelism must be an integer from 1 to 1000, got "0"/],
    [['--termination', 'tls'], /--termination must be one of http, edge, passthrough, reencrypt, got "tls"/],
    [['--connection', 'persistent'], /--connection must be one of keepalive, close, got "persistent"/],
    [['--duration', '1 minute'], /--duration: "1 minute" is not a k6 duration/],
    [['--page-size', 'big'], /--page-size: page size must look like 1024, 1k/],
    // The project's one page-size grammar (k6/lib/cells.js parseSize): no fractions.
    [['--page-size', '1.5k'], /--page-size: page size must look like 1024, 1k/],
  ])('%j is refused with a message naming it', (args, message) => {
    expect(() => parse(args)).toThrow(message);
  });
});

test('route URLs: admitted host, scheme by termination, URL_* names for k6', () => {
  const route = (name, termination, host, admitted = true) => ({
    metadata: { name },
    spec: { host: `${name}.spec.example`, ...(termination ? { tls: { termination } } : {}) },
    status: { ingress: [{ host, conditions: [{ type: 'Admitted', status: admitted ? 'True' : 'False' }] }] },
  });
  const urls = routeUrls([
    route('data-service-http', null, 'h.apps.example'),
    route('data-service-edge', 'edge', 'e.shard.example'),
    route('data-service-reencrypt', 'reencrypt', 'r.apps.example', false),
    route('something-else', 'edge', 'x.apps.example'),
  ]);
  expect(urls).toEqual([
    { name: 'data-service-edge', termination: 'edge', url: 'https://e.shard.example', envName: 'URL_EDGE' },
    { name: 'data-service-http', termination: 'http', url: 'http://h.apps.example', envName: 'URL_HTTP' },
    // Not admitted (yet): fall back to spec.host.
    {
      name: 'data-service-reencrypt',
      termination: 'reencrypt',
      url: 'https://data-service-reencrypt.spec.example',
      envName: 'URL_REENCRYPT',
    },
  ]);
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
  });
  // $(POD_NAME) only expands if POD_NAME comes first.
  expect(env.findIndex((e) => e.name === 'POD_NAME')).toBeLessThan(
    env.findIndex((e) => e.name === 'SUMMARY_PATH'),
  );
  expect(validate(objects.map((o) => yaml.dump(o)).join('---\n')).ok).toBe(true);
}, 60000);
