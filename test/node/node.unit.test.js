'use strict';
// The node's pure parts (LAB_PODS=yes): its addresses, the kubelet's and containerd's settings, the
// lab overlay around the repository's, the images' mapping; and the knob's constraint.
const path = require('node:path');
const { nodeAddresses } = require('../../lib/lab/node/addresses');
const { podNetwork } = require('../../lib/lab/common/pod-network');
const { kubeletConfig } = require('../../lib/lab/node/kubelet');
const { containerdConfig, cniConfig } = require('../../lib/lab/node/containerd');
const { labKustomization, SCC_UID } = require('../../lib/lab/node/workloads');
const { nodePaths } = require('../../lib/lab/node/paths');
const { kustomizeImages } = require('../../lib/images');
const { resolveLabOptions } = require('../../lib/lab/common/options');
const { ROOT } = require('../../lib/core/paths');

const inRange = (ip, [a, b, c0, c1]) => {
  const [x, y, z] = ip.split('.').map(Number);
  return x === a && y === b && z >= c0 && z <= c1;
};

test("each lab's node has addresses of its own in 198.18.0.0/15, apart from the process lab's pod network", () => {
  const dirs = ['/tmp/a', '/tmp/b', '/tmp/c', '/work/.lab'];
  const all = dirs.map(nodeAddresses);
  for (const a of all) {
    expect(inRange(a.gateway, [198, 18, 128, 255])).toBe(true);
    expect(a.podCidr).toBe(`${a.gateway.replace(/\.1$/, '.0')}/24`);
    expect(a.serviceCidr).toMatch(/^198\.19\.(0|64|128|192)\.0\/18$/);
    expect(a.bridge.length).toBeLessThanOrEqual(15);
    expect(a.cgroupRoot).toMatch(/^\/routerlab-[0-9a-f]{8}$/);
  }
  expect(new Set(all.map((a) => a.bridge)).size).toBe(dirs.length);
  // The same directory, the same names: lab:down finds them after a crash.
  expect(nodeAddresses('/tmp/a')).toEqual(all[0]);
  for (const dir of dirs) expect(inRange(podNetwork(dir).podAddress, [198, 18, 0, 127])).toBe(true);
});

test("the kubelet: containerd's socket in its namespace, the bridge's address, the lab's DNS and cgroup root", () => {
  const addresses = nodeAddresses('/tmp/a');
  const config = kubeletConfig(nodePaths('/tmp/a'), {
    addresses,
    ports: { kubelet: 40000, kubeletHealthz: 40001 },
    clientCA: '/tmp/a/kube/kube-ca.crt',
  });
  expect(config).toMatchObject({
    containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock',
    address: addresses.gateway,
    clusterDNS: [addresses.gateway],
    cgroupRoot: addresses.cgroupRoot,
    cgroupDriver: 'cgroupfs',
    makeIPTablesUtilChains: false,
    authentication: { anonymous: { enabled: false } },
  });
});

test('containerd keeps its root, state and CNI files under the lab; pods get a default route via the bridge', () => {
  const p = nodePaths('/tmp/a');
  const toml = containerdConfig(p, { sandboxImage: 'localhost/router-lab/pause:x' });
  for (const dir of [p.containerdRoot, p.containerdState, p.containerdOpt, p.cniConfDir])
    expect(toml).toContain(JSON.stringify(dir));
  expect(toml).toMatch(/restrict_oom_score_adj = true/);
  const cni = cniConfig(p, nodeAddresses('/tmp/a'));
  expect(cni.plugins[0].ipam).toMatchObject({ routes: [{ dst: '0.0.0.0/0' }], dataDir: p.cniDataDir });
});

describe('the lab overlay', () => {
  const images = [
    { name: 'base', ref: 'localhost/router-lab/base:aa', replaces: ['docker.io/library/redis'] },
    { name: 'data-service', ref: 'localhost/router-lab/data-service:bb', replaces: ['data-service'] },
  ];
  const dir = '/tmp/lab/node/overlay';

  test('Redis Cluster: the repository overlay as is, its images mapped, the SCC user set', () => {
    const k = labKustomization({ overlay: 'edge', redisMode: 'cluster', replicas: 2, images, dir });
    expect(k.resources).toEqual([path.relative(dir, path.join(ROOT, 'overlays/edge'))]);
    expect(k.components).toBeUndefined();
    expect(k.images).toEqual([
      { name: 'docker.io/library/redis', newName: 'localhost/router-lab/base', newTag: 'aa' },
      { name: 'data-service', newName: 'localhost/router-lab/data-service', newTag: 'bb' },
    ]);
    expect(k.replicas).toEqual([{ name: 'data-service', count: 2 }]);
    expect(k.patches.map((p) => p.target.kind)).toEqual(['Deployment', 'StatefulSet', 'Job', 'StatefulSet']);
    expect(k.patches[0].patch).toContain(`runAsUser: ${SCC_UID}`);
  });

  test("standalone Redis: the service and the overlay's Routes over redis/standalone", () => {
    const k = labKustomization({ overlay: 'all', redisMode: 'standalone', replicas: 2, images, dir });
    expect(k.resources).toEqual(
      ['manifests', 'redis/standalone'].map((r) => path.relative(dir, path.join(ROOT, r))),
    );
    expect(k.components.map((c) => path.basename(c))).toEqual([
      'route-http',
      'route-edge',
      'route-passthrough',
      'route-reencrypt',
    ]);
  });

  test('an image that stands in for nothing maps nothing', () => {
    expect(kustomizeImages([{ name: 'pause', ref: 'localhost/router-lab/pause:cc', replaces: [] }])).toEqual(
      [],
    );
  });
});

test('LAB_PODS=yes without the real router is refused, naming both', () => {
  expect(() => resolveLabOptions({ LAB_PODS: 'yes' })).toThrow(/LAB_PODS is for LAB_ROUTER=openshift only/);
  expect(resolveLabOptions({ LAB_PODS: 'yes', LAB_ROUTER: 'openshift' }).pods).toBe(true);
});

describe('how the pods reach the router, and what cluster:k6 runs on the node', () => {
  const { routerServiceObjects } = require('../../lib/lab/node/router-service');
  const { corefile } = require('../../lib/lab/node/controllers');
  const { clusterK6Command, resultsVolume } = require('../../lib/lab/node/k6-operator');
  const { routerPod } = require('../../lib/lab/openshift-router/router-pod');
  const addresses = nodeAddresses('/tmp/some-lab');

  test("the router's Service: ports 80 and 443 to the router's on the node's address, at a fixed ClusterIP", () => {
    const { service, slice } = routerServiceObjects({ addresses, ports: { http: 9080, https: 9443 } });
    expect(service.spec.clusterIP).toBe(addresses.routerServiceIp);
    expect(service.spec.clusterIP.startsWith(addresses.serviceCidr.split('.').slice(0, 3).join('.'))).toBe(
      true,
    );
    expect(service.spec.ports.map((p) => [p.port, p.targetPort])).toEqual([
      [80, 9080],
      [443, 9443],
    ]);
    expect(slice.endpoints).toEqual([{ addresses: [addresses.gateway], conditions: { ready: true } }]);
    expect(slice.metadata.labels['kubernetes.io/service-name']).toBe(service.metadata.name);
  });

  test('CoreDNS answers every name of the apps domain with that ClusterIP, IPv4 only', () => {
    const text = corefile({ kube: { kubeconfig: '/k' }, addresses });
    expect(text).toContain(
      `template IN A apps.lab.localhost {\n        answer "{{ .Name }} 60 IN A ${addresses.routerServiceIp}"`,
    );
    expect(text).toMatch(/template IN AAAA apps\.lab\.localhost \{\s+rcode NOERROR/);
  });

  test("lab:status's cluster:k6 command maps the TestRun's two images and lowers the runners' CPU request", () => {
    const images = [
      { name: 'base', ref: 'localhost/router-lab/base:aa', replaces: ['docker.io/library/redis'] },
      { name: 'k6-runner', ref: 'localhost/router-lab/k6-runner:bb', replaces: ['docker.io/grafana/k6'] },
      {
        name: 'k6-starter',
        ref: 'localhost/router-lab/k6-starter:cc',
        replaces: ['ghcr.io/grafana/k6-operator'],
      },
    ];
    expect(clusterK6Command('/lab/kubeconfig', images)).toBe(
      'KUBECONFIG=/lab/kubeconfig npm run cluster:k6 -- --images docker.io/grafana/k6=localhost/router-lab/k6-runner:bb,' +
        'ghcr.io/grafana/k6-operator=localhost/router-lab/k6-starter:cc --runner-cpu 100m',
    );
    expect(resultsVolume('/lab/node/volumes/k6-results').spec.accessModes).toEqual(['ReadWriteMany']);
  });

  test("the router's pod: named as the openshift profile expects, host network, its files mounted, pinned when asked", () => {
    const lab = {
      labDir: '/tmp/some-lab',
      haproxy: { path: '/usr/sbin/haproxy' },
      node: { baseImage: 'localhost/router-lab/base:aa' },
      cpus: { router: '1' },
    };
    const pod = routerPod(lab, { release: '5.0' }, { ROUTER_THREADS: '2' });
    expect(pod.metadata).toMatchObject({
      name: expect.stringMatching(/^router-default-.+/),
      namespace: 'openshift-ingress',
    });
    expect(pod.spec.hostNetwork).toBe(true);
    const [container] = pod.spec.containers;
    expect(container.name).toBe('router');
    expect(container.command[2]).toMatch(/^exec taskset -c "\$2"/);
    expect(container.command[5]).toBe('1');
    expect(container.env).toEqual([{ name: 'ROUTER_THREADS', value: '2' }]);
    expect(container.volumeMounts.map((m) => m.mountPath)).toEqual(
      expect.arrayContaining([
        '/var/lib/haproxy',
        '/var/lib/haproxy/run',
        '/usr/sbin/haproxy',
        '/tmp/some-lab',
      ]),
    );
    const unpinned = routerPod({ ...lab, cpus: { router: null } }, { release: '5.0' }, {});
    expect(unpinned.spec.containers[0].command[2]).toBe('exec "$0" --v=2 >>"$1" 2>&1');
  });
});
