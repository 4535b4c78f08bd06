'use strict';
// The real router's pure parts: the template's binds moved to the lab's addresses, the namespaces it runs in,
// the pod network's addresses, and the knobs that go with LAB_ROUTER=openshift.
const { namespacedCommand } = require('../../lib/lab/openshift-router/processes');
const { boundTemplate } = require('../../lib/lab/openshift-router/work-dir');
const { podNetwork } = require('../../lib/lab/common/pod-network');
const { resolveLabOptions, KNOBS } = require('../../lib/lab/common/options');
const { summarize } = require('../../lib/lab/kube/admission-probes');

const cores = { allowedCores: [0, 1] };

test("the template's `bind :PORT` lines bind 127.0.0.1 (and the node's address), and a template without them is refused", () => {
  const text = [
    'listen stats',
    '  bind :{{ .StatsPort }}',
    'frontend public',
    '  bind :{{ env "ROUTER_SERVICE_HTTP_PORT" "80" }}',
    '  bind :::{{ env "ROUTER_SERVICE_HTTP_PORT" "80" }} v6only',
    'frontend public_ssl',
    '  bind :{{ env "ROUTER_SERVICE_HTTPS_PORT" "443" }}',
    '  bind unix@/var/lib/haproxy/run/haproxy-sni.sock ssl',
  ].join('\n');
  const out = boundTemplate(text);
  expect(out.match(/bind 127\.0\.0\.1:/g)).toHaveLength(3);
  expect(out).toContain('bind 127.0.0.1:{{ env "ROUTER_SERVICE_HTTPS_PORT" "443" }}\n');
  // With pods: the node's address too, on the same port.
  expect(boundTemplate(text, ['127.0.0.1', '198.18.130.1'])).toContain(
    'bind 127.0.0.1:{{ .StatsPort }}\n  bind 198.18.130.1:{{ .StatsPort }}\n',
  );
  expect(out).toContain('bind :::{{ env "ROUTER_SERVICE_HTTP_PORT" "80" }} v6only');
  expect(out).toContain('bind unix@/var/lib/haproxy/run/haproxy-sni.sock ssl');
  expect(() => boundTemplate('frontend public\n  bind 0.0.0.0:80\n')).toThrow(/0 'bind :PORT' lines/);
});

test('the router runs in new mount and PID namespaces, its files mounted over the paths it hard-codes', () => {
  const { file, args } = namespacedCommand('/lab', { haproxy: '/tools/haproxy', release: '5.0' });
  expect(file).toBe('unshare');
  expect(args.slice(0, 7)).toEqual([
    '--mount',
    '--pid',
    '--fork',
    '--mount-proc',
    '--propagation',
    'private',
    '--',
  ]);
  const script = args[9];
  expect(script).toMatch(
    /mount --bind "\$1" \/var\/lib\/haproxy;.*mount --bind "\$3" \/usr\/sbin\/haproxy;.*exec "\$4"/,
  );
  expect(args.slice(11)).toEqual([
    '/lab/openshift-router',
    '/lab/run',
    '/tools/haproxy',
    expect.stringMatching(/openshift-router\/5\.0\/openshift-router$/),
  ]);
});

test('each lab dir gets its own /27 in 198.18.0.0/17, an address per instance, and interface names the kernel accepts', () => {
  const a = podNetwork('/tmp/a');
  const b = podNetwork('/tmp/b');
  expect(podNetwork('/tmp/a')).toEqual(a);
  expect(a.netns).not.toBe(b.netns);
  const asNumber = (address) => address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
  for (const net of [a, b]) {
    const all = [net.hostAddress, net.podAddress, ...net.instanceAddresses].map(asNumber);
    const first = asNumber('198.18.0.0');
    expect(all.every((n) => n >= first && n < first + 2 ** 15)).toBe(true);
    expect(all[0] % 32).toBe(0);
    // Consecutive, distinct, all inside the block: no network or broadcast address is needed.
    expect(all).toEqual(all.map((_, i) => all[0] + i));
    expect(all.length).toBeLessThanOrEqual(32);
    expect(net.prefixLength).toBe(27);
    for (const name of [net.hostIf, net.podIf]) expect(name.length).toBeLessThanOrEqual(15);
  }
  // Each of LAB_REPLICAS's instances has an address.
  const replicas = KNOBS.find((s) => s.name === 'replicas');
  expect(a.instanceAddresses).toHaveLength(replicas.max);
});

test('LAB_ROUTER and its knobs: unknown values refused by name, 5.0 by default, no balance override', () => {
  expect(() => resolveLabOptions({ LAB_ROUTER: 'nginx' }, cores)).toThrow(
    /LAB_ROUTER must be one of template, openshift/,
  );
  expect(resolveLabOptions({ LAB_ROUTER: 'openshift' }, cores)).toMatchObject({
    router: 'openshift',
    openshiftRelease: '5.0',
    overlay: 'all',
    reloadIntervalS: 5,
  });
  expect(resolveLabOptions({}, cores).openshiftRelease).toBe('4.22');
  expect(() => resolveLabOptions({ LAB_ROUTER: 'openshift', LAB_OPENSHIFT_RELEASE: '4.18' }, cores)).toThrow(
    /LAB_OPENSHIFT_RELEASE=4.18: .* 5.0 or 4.22 only/,
  );
  expect(() =>
    resolveLabOptions({ LAB_ROUTER: 'openshift', LAB_PASSTHROUGH_BALANCE: 'source' }, cores),
  ).toThrow(/LAB_PASSTHROUGH_BALANCE .* annotation decides/);
  expect(() => resolveLabOptions({ LAB_OVERLAY: 'sandbox' }, cores)).toThrow(/LAB_OVERLAY must be one of/);
});

test('admission figures are nearest-rank percentiles', () => {
  expect(summarize([5, 1, 3, 2, 4])).toEqual({ p50: 3, p99: 5, max: 5 });
  expect(summarize([7])).toEqual({ p50: 7, p99: 7, max: 7 });
});
