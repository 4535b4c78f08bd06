'use strict';
// LAB_PODS=yes, after the guide's page on it (one start): the overlay's pods on a node of the lab,
// from images built here, serving every termination through the controller's EndpointSlices;
// cluster:k6 through k6-operator; lab:down leaves nothing behind.
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const { execFile, execFileSync } = require('node:child_process');
const { sharedLab, whoami, loadLoop, runScenarios } = require('../lab/helpers');
const { SHARED_KNOBS } = require('../support/lab-pool');
const { request } = require('../../lib/lab/common/client');
const { nodeAddresses } = require('../../lib/lab/node/addresses');
const { cgroupHierarchies } = require('../../lib/lab/node/cgroups');
const { applicable } = require('../../lib/reliability/applicable');
const { parseMatrixArgs } = require('../../lib/matrix/options');
const { runMatrix } = require('../../lib/matrix/run');
const { withTreeCpu } = require('../support/tree-cpu');
const { reloadCounters } = require('../../lib/lab/openshift-router/router-metrics');
const { RUN_ORDER, endsOnPods, testPages } = require('../guide/pages');

// The node's first start may build the images (setup --for test builds them beforehand).
jest.setTimeout(300000);

const describeAsRoot = process.getuid() === 0 ? describe : describe.skip;

testPages(RUN_ORDER.filter(endsOnPods));

describeAsRoot('LAB_PODS=yes: the overlay as users apply it, on a node of the lab', () => {
  const lab = require('../../lib/lab/index');
  // Redis Cluster, as the overlays have it: 6 pods and the formation Job. The run's shared lab with
  // pods, up already from the guide's page above; the last test here takes it down.
  const lab$ = sharedLab(SHARED_KNOBS.pods);
  const { env } = lab$;
  let state;
  let kubectl;

  beforeAll(() => {
    state = lab$.state;
    kubectl = (...args) =>
      JSON.parse(
        execFileSync(
          '.tools/bin/kubectl',
          ['--kubeconfig', state.router.kube.kubeconfig, ...args, '-o', 'json'],
          {
            encoding: 'utf8',
          },
        ),
      );
  });
  const servicePods = () =>
    kubectl('get', 'pods', '-n', 'router-lab', '-l', 'app.kubernetes.io/name=data-service').items;

  afterAll(async () => {
    // Down already, unless a test failed first.
    await lab.down({ env, log: () => {} });
    fs.rmSync(env.LAB_DIR, { recursive: true, force: true });
  });

  test('every pod runs from an image built here and is ready; Redis Cluster formed', () => {
    const pods = kubectl('get', 'pods', '-n', 'router-lab').items;
    const byName = Object.fromEntries(
      pods.map((p) => [
        p.metadata.name.replace(/^data-service-\w+-\w+$/, 'data-service'),
        p.status.phase === 'Succeeded' ||
          p.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
      ]),
    );
    expect(Object.keys(byName).sort()).toEqual([
      'data-service',
      ...[0, 1, 2, 3, 4, 5].map((i) => `redis-cluster-${i}`),
      expect.stringMatching(/^redis-cluster-form-/),
    ]);
    expect(Object.values(byName).every(Boolean)).toBe(true);
    const images = new Set(pods.flatMap((p) => p.spec.containers.map((c) => c.image)));
    expect([...images].every((image) => image.startsWith('localhost/router-lab/'))).toBe(true);
    expect(state.router.node.addresses.podCidr).toMatch(/^198\.18\.\d+\.0\/24$/);
  });

  test('each termination answers from a data-service pod that kubectl lists, through the controller’s EndpointSlices', async () => {
    const pods = servicePods();
    const names = pods.map((p) => p.metadata.name);
    expect(names).toHaveLength(2);
    for (const termination of ['http', 'edge', 'passthrough', 'reencrypt']) {
      const { instance } = await whoami(state, termination);
      expect([termination, names]).toEqual([termination, expect.arrayContaining([instance])]);
    }
    const slices = kubectl(
      'get',
      'endpointslices',
      '-n',
      'router-lab',
      '-l',
      'kubernetes.io/service-name=data-service',
    );
    const [slice] = slices.items;
    expect(slice.metadata.labels['endpointslice.kubernetes.io/managed-by']).toBe(
      'endpointslice-controller.k8s.io',
    );
    expect(slice.endpoints.map((e) => e.addresses[0]).sort()).toEqual(pods.map((p) => p.status.podIP).sort());
  });

  test('a record written through the edge Route is read back: the pods reach Redis Cluster by name', async () => {
    const edge = state.routes.find((r) => r.termination === 'edge');
    const ca = fs.readFileSync(state.certs.labCA);
    const created = await request(`${edge.url}/api/records`, {
      method: 'POST',
      ca,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer: 'pods', balance: 42 }),
    });
    expect(created.status).toBe(201);
    const { id } = created.json();
    const read = await request(`${edge.url}/api/records/${id}`, { ca });
    expect([read.status, read.json()]).toEqual([200, expect.objectContaining({ id, customer: 'pods' })]);
  });

  test('lab:rollout is kubectl rollout restart: under load through edge and http, no request reaches a gone pod', async () => {
    const before = state.instances.map((i) => i.name);
    let done = false;
    const until = () => done;
    const ca = fs.readFileSync(state.certs.labCA);
    const url = (t) => `${state.routes.find((r) => r.termination === t).url}/api/whoami`;
    const connections = 4;
    const reloadsBefore = (await reloadCounters(state.router)).reloads;
    const loads = [
      loadLoop(url('edge'), { concurrency: connections / 2, until, ca, maxMs: 240000 }),
      loadLoop(url('http'), { concurrency: connections / 2, until, maxMs: 240000 }),
    ];
    const after = await lab.rollout({ env, log: () => {} }).finally(() => (done = true));
    const [edge, http] = await Promise.all(loads);
    const reloads = (await reloadCounters(state.router)).reloads - reloadsBefore;
    // No answer from a pod that was gone (a 502 or 503): the probes and the drain delay hold. A
    // reload resets each keep-alive connection at most once (docs/figures.md, "Reloads and
    // keep-alive clients"): a bound by reloads, since a busy machine sends fewer requests, not fewer resets.
    const failures = [...edge.failures, ...http.failures];
    expect(failures.filter((f) => f !== 'ECONNRESET')).toEqual([]);
    expect(reloads).toBeGreaterThan(0);
    expect(failures.length).toBeLessThanOrEqual(connections * reloads);
    expect(edge.ok + http.ok).toBeGreaterThan(100);
    const names = after.instances.map((i) => i.name);
    expect(names).toHaveLength(2);
    expect(names.filter((n) => before.includes(n))).toEqual([]);
    const listed = servicePods();
    expect(listed.map((p) => p.metadata.name)).toEqual(expect.arrayContaining(names));
    state = after;
  });

  test('reliability on pods: a data-service pod deleted under load loses no request; a Redis Cluster primary deleted, writes come back', async () => {
    const dir = path.join(env.LAB_DIR, 'reliability');
    const opts = { rate: 30, terminations: ['http', 'edge'], writers: 2 };
    const { doc } = await runScenarios(['pod-delete', 'redis-pod-delete'], opts, { env, dir });
    const [podDelete, redisDelete] = doc.scenarios;
    for (const c of podDelete.cases) {
      expect({ case: c.name, errors: c.errors, covered: c.figures.coveredByLoad }).toEqual({
        case: c.name,
        errors: {},
        covered: true,
      });
    }
    expect(podDelete.cases[0].injected.map((i) => i.what)).toEqual([
      expect.stringMatching(/^pod data-service-\S+ deleted/),
      expect.stringMatching(/^2 pods ready again/),
    ]);
    const [c] = redisDelete.cases;
    expect(c.name).toMatch(/^cluster: redis-cluster-\d deleted$/);
    expect(c.dataLost.acknowledged).toBeGreaterThan(0);
    // Writes came back once the replica was promoted (the verdict's other condition).
    expect(c.recoveryMs).toBeGreaterThan(0);
    expect([podDelete.verdict.pass, redisDelete.verdict.pass]).toEqual([true, true]);
    state = lab.readLabState(env.LAB_DIR);
  });

  test('the router runs as a pod: the openshift profile reads its CPU from the kubelet’s cAdvisor, agreeing with /proc', async () => {
    const router = kubectl('get', 'pod', 'router-default-lab', '-n', 'openshift-ingress');
    expect(router.spec.containers.map((c) => c.name)).toEqual(['router']);
    expect(router.spec.hostNetwork).toBe(true);
    // The command lab:status prints, as arguments: the openshift profile, unchanged.
    const args = state.router.monitoring.clusterCommand.split(' ').slice(4);
    expect(args.join(' ')).toContain('--prometheus-profile openshift');
    const opts = parseMatrixArgs([
      ...args,
      ...[
        '--cells',
        'http:1k:keepalive',
        '--duration',
        '6',
        '--samples',
        '2',
        '--warmup',
        '0',
        '--cooldown',
        '0',
      ],
      ...['--no-report', '--out', path.join(env.LAB_DIR, 'matrix-cluster')],
    ]);
    const { result: results, over } = await withTreeCpu(state.router.pid, async () => {
      const run = await runMatrix(opts, {
        env,
        log: () => {},
        progressStream: fs.createWriteStream('/dev/null'),
      });
      return run.results;
    });
    const [cell] = results.cells;
    expect(cell.router.metricsError).toBeNull();
    // cAdvisor's series for the service's pods too (container data-service in router-lab), by pod.
    const listed = servicePods().map((p) => p.metadata.name);
    expect(cell.backend.instances.map((i) => i.name).sort()).toEqual(listed.sort());
    expect(cell.backend.instances.every((i) => i.cpuCores > 0)).toBe(true);
    // Over the ranges Prometheus was asked about: outside them (k6 starting, the waits for the
    // scrapes) the router does other work, a third of it on a busy host.
    const proc = over(cell.router.prometheus.windows);
    expect(cell.router.prometheus.windows).toHaveLength(2);
    expect(cell.router.cpuCores / (proc.cpuSeconds / proc.seconds)).toBeGreaterThan(0.85);
    expect(cell.router.cpuCores / (proc.cpuSeconds / proc.seconds)).toBeLessThan(1.15);
  });

  test('what acts on the process lab’s own processes is refused or skipped, saying what to do instead', async () => {
    await expect(lab.reload({ env, exclude: [state.instances[0].name] })).rejects.toThrow(/controller owns/);
    const { skipped } = applicable(require('../../lib/reliability/scenarios'), state);
    expect(skipped.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'endpoints',
        'redis-kill',
        'durability',
        'redis-failover',
        'exhaustion',
        'soak',
      ]),
    );
  });

  test('cluster:k6 --parallelism 2 --rate 100 as lab:status prints it: k6-operator runs the TestRun on the node, the rate split between both runners and offered, their CPU and the router’s from cAdvisor', async () => {
    // "KUBECONFIG=<file> npm run cluster:k6 -- <args>", run as users run it.
    const [assignment, ...words] = state.router.node.clusterK6.split(' ');
    const args = words.slice(words.indexOf('--') + 1);
    const out = path.join(env.LAB_DIR, 'cluster-k6');
    // Not execFileSync: the shared lab's lock (lab-pool's useExclusively) is kept fresh by a timer of
    // this process, and a 30 s blocked event loop lost it: another file took the lab over.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        'bin/cluster-k6.js',
        ...args,
        // 50 VUs per runner at 50 req/s each: enough for a second of slow responses on this busy
        // node (CI dropped iterations with 5 per runner at a p99 of 84 ms, and with 20 per runner
        // at a p99 of 408 ms and a TLS handshake of 197 ms).
        ...['--parallelism', '2', '--rate', '100', '--vus', '100', '--duration', '5s', '--out', out],
        // The router's and the runners' CPU from cAdvisor, as on a cluster.
        ...['--prometheus', state.router.monitoring.url, '--scrape-interval', '1'],
      ],
      { encoding: 'utf8', timeout: 180000, env: { ...process.env, KUBECONFIG: assignment.split('=')[1] } },
    );
    expect(stdout).toMatch(/stage: finished/);
    const results = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    const [cell] = results.cells;
    // One summary per runner pod, named after it: both ran (the starter started them together).
    expect(cell.raw).toEqual([
      expect.stringMatching(/-router-matrix-1-\w+\.json$/),
      expect.stringMatching(/-router-matrix-2-\w+\.json$/),
    ]);
    expect([cell.name, cell.errors, cell.combine]).toEqual(['edge:1k:keepalive', {}, 'concurrent']);
    // Each runner started half the rate (k6's execution segments): 250 requests of the 5 s at 100
    // req/s. Counted, not timed: a runner's own time holds its last responses' drain too.
    expect(results.options).toMatchObject({ executor: 'constant-arrival-rate', rate: 100 });
    const requests = cell.raw.map(
      (file) => JSON.parse(fs.readFileSync(path.resolve(out, file), 'utf8')).metrics.http_reqs.values.count,
    );
    expect(requests.map((n) => Math.abs(n - 250) <= 5)).toEqual([true, true]);
    expect(cell.generator.droppedIterations).toBe(0);
    expect(stdout).toMatch(/^offered (9[5-9]|10[0-5])(\.\d)? of the 100 req\/s asked$/m);
    expect(cell.router.cpuCores).toBeGreaterThan(0);
    expect(cell.cost.k6.perRequestUs.median).toBeGreaterThan(0);
    expect(cell.limitedBy.by).not.toBe('unknown');
    // The runners' requests went through the router to the pods (the router's Service and CoreDNS).
    // The runners' Jobs (router-matrix-<n>; the initializer and starter carry the same label).
    const jobs = kubectl('get', 'jobs', '-n', 'router-lab', '-l', 'k6_cr=router-matrix').items;
    const runners = jobs.filter((j) => /^router-matrix-\d+$/.test(j.metadata.name));
    expect(runners.map((j) => j.status.succeeded)).toEqual([1, 1]);
  });

  test('lab:down stops every process, mount, cgroup, bridge and netfilter table of the node', async () => {
    const addresses = nodeAddresses(env.LAB_DIR);
    await lab.down({ env, log: () => {} });
    const commands = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(commands.split('\n').filter((c) => c.includes(env.LAB_DIR) && !c.startsWith('ps '))).toEqual([]);
    const mounts = execFileSync('findmnt', ['-rn', '-o', 'TARGET'], { encoding: 'utf8' });
    expect(mounts.split('\n').filter((m) => m.startsWith(env.LAB_DIR))).toEqual([]);
    expect(fs.existsSync(`/sys/class/net/${addresses.bridge}`)).toBe(false);
    expect(cgroupHierarchies().filter((h) => fs.existsSync(path.join(h, addresses.cgroupRoot)))).toEqual([]);
    const ruleset = execFileSync('nft', ['list', 'ruleset'], { encoding: 'utf8' });
    expect(ruleset.match(/table \w+ kube-proxy|KUBE-/g)).toBeNull();
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toMatch(/cni-/);
  });
});
