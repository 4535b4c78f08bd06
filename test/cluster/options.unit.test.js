'use strict';
// The cluster commands' pure logic: cluster:k6's options, and the route URLs read from Routes.
const { routeUrls } = require('../../lib/cluster/routes');
const { parseK6: parse } = require('../../lib/cluster/options');
const { durationSeconds } = require('../../k6/lib/config');

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

test('--images NAME=IMAGE,…: kustomize entries, the tag split off; a malformed entry named', () => {
  expect(
    parse([
      '--images',
      'docker.io/grafana/k6=registry.example:5000/k6:1.8.1,ghcr.io/grafana/k6-operator=reg/starter',
    ]).images,
  ).toEqual([
    { name: 'docker.io/grafana/k6', newName: 'registry.example:5000/k6', newTag: '1.8.1' },
    { name: 'ghcr.io/grafana/k6-operator', newName: 'reg/starter' },
  ]);
  expect(() => parse(['--images', 'docker.io/grafana/k6'])).toThrow(
    /--images: "docker.io\/grafana\/k6" is not NAME=IMAGE/,
  );
  expect(() => parse(['--runner-cpu', '1.5x'])).toThrow(/--runner-cpu: "1.5x" is not a CPU quantity/);
  expect(parse(['--runner-cpu', '250m']).runnerCpu).toBe('250m');
});

test('a runner that cannot be placed: the advice follows the reason; a passing reason gets none', () => {
  const { placementAdvice } = require('../../lib/cluster/k6-testrun');
  expect(placementAdvice('0/1 nodes are available: 1 Insufficient cpu.')).toMatch(/--runner-cpu/);
  expect(placementAdvice("0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.")).toMatch(
    /--separate/,
  );
  expect(
    placementAdvice('0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.'),
  ).toBeNull();
});
