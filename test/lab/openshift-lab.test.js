'use strict';
// LAB_ROUTER=openshift end to end, booted once: overlays/all applied, four Routes admitted and
// serving, admission latency measured, the template router compared with the real one, reloads
// and reliability scenarios through the API, and nothing left after lab:down.
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const lab = require('../../lib/lab/index');
const { measureAdmission, admissionProbeRoute } = require('../../lib/lab/openshift-router/admission');
const { adminClient } = require('../../lib/lab/kube/control-plane');
const { routesPath } = require('../../lib/lab/kube/routes-api');
const { configurationsOf, fidelity } = require('../../lib/lab/openshift-router/fidelity');
const { podNetwork } = require('../../lib/lab/common/pod-network');
const { servingHaproxy } = require('../../lib/lab/openshift-router/processes');
const { isAlive } = require('../../lib/core/processes');
const { sharedLab, useTempDir, runScenarios, whoami } = require('./helpers');

jest.setTimeout(180000);

const RELOAD_INTERVAL_S = 1;
// Namespaces need root; the machines this suite runs on have it.
const describeAsRoot = process.getuid() === 0 ? describe : describe.skip;

/** Listening TCP sockets on `port` as /proc/net/tcp shows them: their local addresses (hex). */
function listeners(port) {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f[1] && f[1].endsWith(`:${hexPort}`) && f[3] === '0A')
    .map((f) => f[1].split(':')[0]);
}

describeAsRoot('LAB_ROUTER=openshift: the real router against a local API server', () => {
  // The run's shared real-router lab: reloads and scenarios leave it serving as it was; the last test
  // takes it down (a file after this one starts it again).
  const lab$ = sharedLab({ LAB_ROUTER: 'openshift', LAB_ROUTER_RELOAD_INTERVAL: String(RELOAD_INTERVAL_S) });
  const dir = useTempDir('rlab-openshift-');
  let state;
  beforeAll(() => {
    state = lab$.state;
  });

  test('overlays/all is applied and all four Routes are admitted and answer 200 through the router', async () => {
    expect(state.router).toMatchObject({ kind: 'openshift', openshiftRouter: { branch: 'release-5.0' } });
    const report = await lab.status({ env: lab$.env });
    expect(report.running).toBe(true);
    expect(report.admission.routes.map((r) => [r.name, r.admitted])).toEqual([
      ['data-service-http', true],
      ['data-service-edge', true],
      ['data-service-passthrough', true],
      ['data-service-reencrypt', true],
    ]);
    for (const r of report.routes) expect(r.probe).toMatchObject({ ok: true, status: 200 });
    const kubectl = execFileSync(
      '.tools/bin/kubectl',
      ['--kubeconfig', state.router.kube.kubeconfig, 'get', 'routes'],
      {
        encoding: 'utf8',
      },
    );
    expect(kubectl).toMatch(
      /data-service-reencrypt\s+data-service-reencrypt-router-lab\.apps\.lab\.localhost\s+True/,
    );
  });

  test('the backends are in the pod network, and the router listens on loopback only', async () => {
    const net = podNetwork(state.labDir);
    expect(state.instances.map((i) => i.host)).toEqual(
      net.instanceAddresses.slice(0, state.instances.length),
    );
    expect((await whoami(state, 'http')).peer.address).toBe(net.hostAddress);
    for (const port of [state.router.httpPort, state.router.httpsPort, state.router.statsPort]) {
      expect(listeners(port)).toEqual(['0100007F']);
    }
  });

  test('admission latency: Admitted within ms, the first 200 at the next reload; an endpoint change loses nothing', async () => {
    const result = await measureAdmission(state, { samples: 3 });
    expect(result.admitted.p50).toBeLessThan(result.firstOk.p50);
    expect(result.firstOk.p99).toBeLessThan(RELOAD_INTERVAL_S * 1000 + 2000);
    expect(result.endpoint).toMatchObject({ failed: 0 });
    expect(result.endpoint.removedMs).toBeLessThan(RELOAD_INTERVAL_S * 1000 + 2000);
    expect(result.endpoint.addedMs).toBeLessThan(RELOAD_INTERVAL_S * 1000 + 2000);
    expect((await lab.status({ env: lab$.env })).admission.lastMeasured).toEqual(result);
  });

  test('the template router differs from the real one only where docs/lab.md says why', () => {
    const { template, openshift } = configurationsOf(state);
    const verdict = fidelity(template, openshift);
    expect(verdict.unexplained).toEqual([]);
    expect(verdict.stale).toEqual([]);
    const doc = fs.readFileSync('docs/lab.md', 'utf8');
    for (const id of new Set(verdict.explained.map((d) => d.known))) expect(doc).toContain(`\`${id}\``);
  });

  test("a Route the API refuses is refused with the API's own message", async () => {
    const client = adminClient(state.labDir);
    const bad = {
      ...admissionProbeRoute('bad-route'),
      spec: { ...admissionProbeRoute('bad-route').spec, host: 'Not A Host!' },
    };
    await expect(client.post(routesPath(), bad)).rejects.toMatchObject({
      name: 'ApiError',
      status: 422,
      apiMessage: expect.stringMatching(/spec\.host/),
    });
  });

  test('lab:reload is a change through the API: a new HAProxy serves and the old one finishes', async () => {
    const before = servingHaproxy(state.router.pid);
    const done = await lab.reload({ env: lab$.env });
    expect(done.oldPids).toEqual([before]);
    expect(done.pid).not.toBe(before);
    expect(servingHaproxy(state.router.pid)).toBe(done.pid);
    expect((await whoami(state, 'edge')).instance).toMatch(/^data-service-/);
  });

  test('reliability: endpoint changes through the API and a Redis kill in the pod network keep their promises', async () => {
    const opts = { rate: 30, outageMs: 500, terminations: ['http', 'edge', 'passthrough', 'reencrypt'] };
    const { doc } = await runScenarios(['endpoints', 'redis-kill', 'exhaustion'], opts, {
      env: lab$.env,
      dir,
    });
    expect(doc.scenarios.map((sc) => [sc.name, sc.verdict.pass])).toEqual([
      ['endpoints', true],
      ['redis-kill', true],
    ]);
    const endpoints = doc.scenarios[0].cases[0];
    expect(endpoints.errors).toEqual({});
    expect(endpoints.figures.coveredByLoad).toBe(true);
  });

  test('lab:down leaves no process, network namespace or mount', async () => {
    const pids = [state.router.pid, ...state.instances.map((i) => i.pid), ...state.redis.pids];
    const haproxy = servingHaproxy(state.router.pid);
    await lab.down({ env: lab$.env, log: () => {} });
    expect([...pids, haproxy].filter((pid) => isAlive(pid))).toEqual([]);
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toContain(
      podNetwork(state.labDir).netns,
    );
    expect(fs.readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain(state.router.workDir);
  });
});
