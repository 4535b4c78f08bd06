'use strict';
// LAB_ROUTER=gateway: the Gateway API as OpenShift implements it, on the lab's router ports. Real
// istiod configures real Envoy from overlays/components/gateway-api{,-passthrough} (every termination), applied
// with kubectl; a quick matrix measures Envoy; lab:down and an interrupted lab:up leave nothing.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { useLab } = require('./helpers');
const { isAlive } = require('../../lib/core/processes');
const { pidsRunning } = require('../../lib/core/proc');
const { request } = require('../../lib/lab/common/client');
const { listRecords } = require('../../lib/lab/common/pids');
const { parseMatrixArgs } = require('../../lib/matrix/options');
const { runMatrix } = require('../../lib/matrix/run');
const { GATEWAY } = require('../../lib/lab/gateway');
const { podNetwork } = require('../../lib/lab/common/pod-network');
const { measureAdmission } = require('../../lib/lab/gateway/admission');

/** The lab's processes (any with LAB_DIR in its command line) and its pod network, if left. */
const leftOf = (labDir) => ({
  processes: pidsRunning(labDir),
  netns: execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' }).includes(podNetwork(labDir).netns),
});

jest.setTimeout(180000);

const describeAsRoot = process.getuid() === 0 ? describe : describe.skip;

describeAsRoot('LAB_ROUTER=gateway: istiod and Envoy from objects applied with kubectl', () => {
  const lab = require('../../lib/lab/index');
  // LAB_ROUTES=12: 8 further HTTPRoutes, of http, edge and re-encrypt in turn.
  const lab$ = useLab({ LAB_ROUTER: 'gateway', LAB_ROUTES: '12' });
  const kubectl = (...args) =>
    JSON.parse(
      execFileSync(
        '.tools/bin/kubectl',
        ['--kubeconfig', lab$.state.router.kube.kubeconfig, ...args, '-o', 'json'],
        { encoding: 'utf8' },
      ),
    );
  const status = (conditions, type) => conditions.find((c) => c.type === type)?.status;

  test('istiod accepts the Gateway and the HTTPRoutes, and programs the Gateway on its Service', () => {
    const gateway = kubectl('get', 'gateway', GATEWAY.name, '-n', GATEWAY.namespace);
    expect(status(gateway.status.conditions, 'Accepted')).toBe('True');
    expect(status(gateway.status.conditions, 'Programmed')).toBe('True');
    const route = kubectl('get', 'httproute', 'data-service', '-n', 'router-lab');
    const parents = route.status.parents.map((p) => [
      p.parentRef.sectionName,
      status(p.conditions, 'Accepted'),
    ]);
    expect(parents.sort()).toEqual([
      ['http', 'True'],
      ['https', 'True'],
    ]);
    const tlsRoute = kubectl('get', 'tlsroute', 'data-service-passthrough', '-n', 'router-lab');
    expect(tlsRoute.status.parents.map((p) => status(p.conditions, 'Accepted'))).toEqual(['True']);
    const reencrypt = kubectl('get', 'httproute', 'data-service-reencrypt', '-n', 'router-lab');
    expect(reencrypt.spec.hostnames).toEqual([
      lab$.state.routes.find((r) => r.termination === 'reencrypt').host,
    ]);
    expect(reencrypt.status.parents.map((p) => status(p.conditions, 'ResolvedRefs'))).toEqual(['True']);
  });

  test('every termination’s URL answers from the data service through Envoy', async () => {
    const { state } = lab$;
    expect(state.routes.map((r) => r.termination).sort()).toEqual([
      'edge',
      'http',
      'passthrough',
      'reencrypt',
    ]);
    const ca = fs.readFileSync(state.certs.labCA);
    // Passthrough: the service's own certificate, for its Service name, not the route's host.
    const trust = (route) =>
      route.termination === 'passthrough' ? { agent: false, rejectUnauthorized: false } : { ca };
    for (const route of state.routes) {
      const res = await request(`${route.url}/api/whoami`, trust(route));
      expect({ route: route.name, status: res.status }).toEqual({ route: route.name, status: 200 });
      expect(state.instances.map((i) => i.name)).toContain(res.json().instance);
    }
    // Envoy served them: its own count of 2xx responses on its listeners.
    const stats = await request(`${state.router.adminUrl}/stats?format=json&filter=downstream_rq_2xx`);
    const served = stats
      .json()
      .stats.filter((x) => /^http\./.test(x.name))
      .reduce((sum, x) => sum + x.value, 0);
    expect(served).toBeGreaterThanOrEqual(3);
    // The service saw TLS from re-encrypt (Envoy's, for the Service's name) and passthrough (the client's).
    const seen = async (termination) => {
      const route = state.routes.find((r) => r.termination === termination);
      return (await request(`${route.url}/api/whoami`, trust(route))).json();
    };
    expect(await seen('reencrypt')).toMatchObject({
      tls: true,
      tlsServername: 'data-service.router-lab.svc',
    });
    const passthrough = state.routes.find((r) => r.termination === 'passthrough');
    expect(await seen('passthrough')).toMatchObject({ tls: true, tlsServername: passthrough.host });
  });

  test("Envoy balances over every instance: istiod sends one endpoint per instance's own address", async () => {
    const { state } = lab$;
    const { servers } = await lab.status({ env: lab$.env });
    const expected = state.instances.map((i) => `${i.host}:${i.port}`);
    const http = servers.rows.filter(
      (r) => expected.includes(r.server) || r.server.endsWith(`:${state.instances[0].port}`),
    );
    expect(http.map((r) => r.server).sort()).toEqual(expected.sort());
    expect(new Set(state.instances.map((i) => i.host)).size).toBe(state.instances.length);
    const route = state.routes.find((r) => r.termination === 'http');
    const seen = new Set();
    for (let i = 0; i < 20 && seen.size < state.instances.length; i++) {
      seen.add((await request(`${route.url}/api/whoami`, { agent: false })).json().instance);
    }
    expect([...seen].sort()).toEqual(state.instances.map((i) => i.name).sort());
  });

  test('lab:admission times HTTPRoutes to Accepted and to their first 200, and an endpoint change; lab:status shows them', async () => {
    const { state } = lab$;
    const result = await measureAdmission(state, { samples: 2 });
    // Accepted comes first; the first 200 is this route's own (its header), after istiod pushed it.
    expect(result.admitted.p50).toBeGreaterThan(0);
    expect(result.firstOk.p50).toBeGreaterThanOrEqual(result.admitted.p50);
    expect(result.firstOk.max).toBeLessThan(30000);
    expect(result.pushes.count).toBeGreaterThan(0);
    expect(result.memoryMb.envoy).toBeGreaterThan(0);
    expect(result.endpoint).toMatchObject({ instance: state.instances.at(-1).name, failed: 0 });
    // The probes are gone, the component's routes still accepted, and the last figures shown.
    const { admission } = await lab.status({ env: lab$.env });
    expect(admission.routes.map((r) => [r.name, r.admitted])).toEqual([
      ['HTTPRoute data-service', true],
      ['HTTPRoute data-service-reencrypt', true],
      ['8 further HTTPRoutes (LAB_ROUTES)', true],
      ['TLSRoute data-service-passthrough', true],
    ]);
    expect(admission.lastMeasured.measuredAt).toBe(result.measuredAt);
    // Both instances serve again.
    const { servers } = await lab.status({ env: lab$.env });
    expect(servers.rows.filter((r) => r.server.endsWith(`:${state.instances.at(-1).port}`))).toHaveLength(1);
  });

  test("LAB_ROUTES's further routes are HTTPRoutes istiod accepted, each serving through Envoy by itself", async () => {
    const { state } = lab$;
    expect(state.scaleRoutes.count).toBe(8);
    expect(state.scaleRoutes.servingMs).toBeGreaterThanOrEqual(state.scaleRoutes.admittedMs);
    const ca = fs.readFileSync(state.certs.labCA);
    for (const route of state.scaleRoutes.routes) {
      const res = await request(`${route.url}/api/whoami`, { ca, agent: false });
      // Its own HTTPRoute answered (its header), not the component's catch-all.
      expect([route.name, res.status, res.headers['x-router-lab-route']]).toEqual([
        route.name,
        200,
        route.name,
      ]);
      // Re-encrypt's: TLS again to its own Service's name, verified by its BackendTLSPolicy.
      if (route.termination === 'reencrypt') {
        expect(res.json()).toMatchObject({ tls: true, tlsServername: `${route.name}.router-lab.svc` });
      }
    }
    const httpRoutes = kubectl('get', 'httproute', '-n', 'router-lab', '-l', 'router-lab.io/scale=true');
    expect(httpRoutes.items).toHaveLength(8);
  });

  test('a quick matrix measures Envoy: µs per request and a verdict for each cell', async () => {
    const out = path.join(lab$.env.LAB_DIR, 'matrix');
    const opts = parseMatrixArgs([
      ...'--quick --warmup 0 --cooldown 0 --duration 2 --no-report'.split(' '),
      '--cells',
      'http:1k:keepalive,edge:1k:keepalive,passthrough:1k:keepalive,reencrypt:1k:keepalive,edge:1k:close:full',
      '--out',
      out,
    ]);
    const { results } = await runMatrix(opts, {
      env: lab$.env,
      log: () => {},
      progressStream: fs.createWriteStream('/dev/null'),
    });
    expect(results.environment.router).toMatchObject({ kind: 'gateway', envoy: '1.40.0' });
    expect(results.environment.haproxy).toBeNull();
    // The floor is timed with this machine's OpenSSL; Envoy's handshakes run on BoringSSL.
    expect(results.handshakeFloor.routerOpenssl).toBe('BoringSSL');
    for (const cell of results.cells) {
      expect(cell.errorRate).toBe(0);
      expect(cell.cost.router.perRequestUs.median).toBeGreaterThan(0);
      // istiod sampled apart, as the Gateway's control plane: it pushes on changes, not per request.
      expect(cell.router.controlPlaneCpuCores).toBeGreaterThanOrEqual(0);
      expect(cell.cost.controlPlane.perRequestUs.median).toBeLessThan(cell.cost.router.perRequestUs.median);
      expect(cell.limitedBy.reasons.length).toBeGreaterThan(0);
    }
    // Envoy's own counters (its admin's /stats) bear the cells out: a full handshake per request,
    // and HTTP/1.1 received as the k6 cells claim.
    const byName = Object.fromEntries(results.cells.map((c) => [c.name, c]));
    expect(byName['edge:1k:close:full'].tlsEvidence).toMatchObject({ claim: 'full', holds: true });
    expect(byName['edge:1k:keepalive'].protocolEvidence).toMatchObject({ claim: 'h1', holds: true });
  });

  test('lab:down stops Envoy, istiod and the control plane', async () => {
    const records = listRecords(lab$.env.LAB_DIR);
    expect(records.map((r) => r.name)).toEqual(
      expect.arrayContaining(['router', 'istiod', 'kube-apiserver']),
    );
    await lab.down({ env: lab$.env, log: () => {} });
    expect(records.filter((r) => isAlive(r.pid)).map((r) => r.name)).toEqual([]);
    expect(leftOf(lab$.env.LAB_DIR)).toEqual({ processes: [], netns: false });
  });
});

describeAsRoot('LAB_ROUTER=gateway interrupted (Ctrl-C) while istiod and Envoy start', () => {
  const { labEnv } = require('./helpers');

  test('stops what it started: no process of the lab is left', async () => {
    const lab = require('../../lib/lab/index');
    const env = labEnv({ LAB_ROUTER: 'gateway' });
    const controller = new AbortController();
    const lines = [];
    const log = (line) => {
      lines.push(line);
      if (/^• Gateway API/.test(line)) setTimeout(() => controller.abort(), 300);
    };
    await expect(lab.up({ env, log, signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(lines).toContain('Interrupted: stopping what was started');
    expect(leftOf(env.LAB_DIR)).toEqual({ processes: [], netns: false });
    fs.rmSync(env.LAB_DIR, { recursive: true, force: true });
  });
});
