'use strict';
// The local lab end to end, with real redis-server, data-service instances and HAProxy on free
// ports in a temp LAB_DIR. One lab serves most tests; the last tests SIGTERM a replica under load
// and then take the lab down.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const lab = require('../../lib/lab/index');
const { checkRouterConfig } = require('../../lib/lab/haproxy/router-config');
const { instanceServerStates } = require('../../lib/lab/faults/rolling-restart');
const { request } = require('../../lib/lab/common/client');
const { isAlive } = require('../../lib/core/processes');
const { setTimeout: sleep } = require('node:timers/promises');
const {
  useLab,
  route,
  peerCertificate,
  verifyWith,
  whoami,
  loadLoop,
  labFootprint,
  aliveOrListening,
} = require('./helpers');

jest.setTimeout(120000);

const SERVICE_HOST = 'data-service.router-lab.svc';

describe('the local lab (LAB_REPLICAS=2, standalone Redis, passthrough balance random)', () => {
  // A lab of its own: it describes a fresh lab, rolls it out, kills a replica and takes it down.
  const lab$ = useLab({ LAB_CHECK_INTERVAL_MS: '500' });
  const { env } = lab$;
  let state;
  beforeAll(() => {
    state = lab$.state;
  });

  test('lab.json describes the routes, processes, certificates and placement', () => {
    expect(lab.readLabState(env.LAB_DIR)).toEqual(state);
    expect(state).toMatchObject({
      labDir: env.LAB_DIR,
      appsDomain: 'apps.lab.localhost',
      namespace: 'router-lab',
      redis: { mode: 'standalone' },
      placement: { router: null, service: null, redis: null, free: null },
    });
    expect(state.routes.map((r) => [r.name, r.termination])).toEqual([
      ['data-service-http', 'http'],
      ['data-service-edge', 'edge'],
      ['data-service-passthrough', 'passthrough'],
      ['data-service-reencrypt', 'reencrypt'],
    ]);
    expect(route(state, 'edge').url).toBe(
      `https://data-service-edge-router-lab.apps.lab.localhost:${state.router.httpsPort}`,
    );
    expect(route(state, 'http').url).toBe(
      `http://data-service-http-router-lab.apps.lab.localhost:${state.router.httpPort}`,
    );
    expect(state.instances.map((i) => i.name)).toEqual(['data-service-1', 'data-service-2']);
    for (const file of [state.certs.labCA, state.certs.serviceCA, state.router.config]) {
      expect(fs.existsSync(file)).toBe(true);
    }
    for (const name of ['router', 'data-service-1', 'data-service-2', 'redis-1']) {
      expect(fs.existsSync(path.join(env.LAB_DIR, 'pids', `${name}.pid`))).toBe(true);
    }
  });

  test('the generated configuration passes haproxy -c and has the router topology', () => {
    expect(() => checkRouterConfig(state.router.config)).not.toThrow();
    const cfg = fs.readFileSync(state.router.config, 'utf8');
    for (const line of [
      'frontend public\n',
      'frontend public_ssl\n',
      'tcp-request content accept if { req_ssl_hello_type 1 }',
      'frontend fe_sni\n',
      'backend be_http:router-lab:data-service-http\n',
      'backend be_edge_http:router-lab:data-service-edge\n',
      'backend be_tcp:router-lab:data-service-passthrough\n',
      'backend be_secure:router-lab:data-service-reencrypt\n',
      `verifyhost ${SERVICE_HOST}`,
      'ssl-default-bind-options ssl-min-ver TLSv1.2',
      'timeout http-keep-alive 300s',
      `maxconn ${state.router.maxconn}\n`,
      `nbthread ${state.router.threads}\n`,
      'balance random\n  hash-type consistent',
    ]) {
      expect(cfg).toContain(line);
    }
  });

  test('edge and re-encrypt clients get the router wildcard certificate, signed by the lab CA', async () => {
    for (const termination of ['edge', 'reencrypt']) {
      const { host } = route(state, termination);
      const cert = await peerCertificate(state, host);
      expect(cert.subject.CN).toBe('*.apps.lab.localhost');
      expect(cert.issuer.CN).toBe('Router Lab CA');
      expect(await verifyWith(state, host, state.certs.labCA)).toBeNull();
    }
  });

  test("passthrough clients get the service's own certificate, which does not name the route host", async () => {
    const { host } = route(state, 'passthrough');
    const cert = await peerCertificate(state, host);
    expect(cert.subjectaltname).toBe(`DNS:${SERVICE_HOST}, DNS:${SERVICE_HOST}.cluster.local`);
    expect(cert.issuer.CN).toMatch(/^openshift-service-serving-signer@/);
    // Trusting the lab CA is not enough: the router never saw this TLS session.
    expect(await verifyWith(state, host, state.certs.labCA)).toMatch(/UNABLE_TO_VERIFY|SELF_SIGNED/);
  });

  test('the service sees TLS only for passthrough and re-encrypt, and the forwarded headers of each hop', async () => {
    const [http, edge, passthrough, reencrypt] = await Promise.all(
      ['http', 'edge', 'passthrough', 'reencrypt'].map((t) => whoami(state, t)),
    );
    const forwarded = (termination, proto, port) => {
      const { host } = route(state, termination);
      return {
        'x-forwarded-for': '127.0.0.1',
        'x-forwarded-host': `${host}:${port}`,
        'x-forwarded-port': String(port),
        'x-forwarded-proto': proto,
        forwarded: `for=127.0.0.1;host=${host}:${port};proto=${proto}`,
      };
    };
    expect(http).toMatchObject({ tls: false, forwarded: forwarded('http', 'http', state.router.httpPort) });
    expect(edge).toMatchObject({ tls: false, forwarded: forwarded('edge', 'https', state.router.httpsPort) });
    // As openshift-router renders it: verifyhost, and no SNI.
    expect(reencrypt).toMatchObject({
      tls: true,
      tlsServername: null,
      forwarded: forwarded('reencrypt', 'https', state.router.httpsPort),
    });
    // Passthrough: the client's own TLS session reaches the service; the router adds nothing.
    expect(passthrough).toMatchObject({
      tls: true,
      tlsServername: route(state, 'passthrough').host,
      forwarded: {},
    });
  });

  test('plain HTTP to the edge route is redirected to https on the router HTTPS port', async () => {
    const edge = route(state, 'edge');
    const res = await request(`http://${edge.host}:${state.router.httpPort}/api/whoami?x=1`, {
      agent: false,
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${edge.url}/api/whoami?x=1`);
    // A host with no plain-HTTP Route at all is not served over plain HTTP.
    const none = await request(`http://unknown-router-lab.${state.appsDomain}:${state.router.httpPort}/`, {
      agent: false,
    });
    expect(none.status).toBe(503);
  });

  test('both replicas serve the http route and (balance random) the passthrough route', async () => {
    for (const termination of ['http', 'passthrough']) {
      const seen = new Set();
      for (let i = 0; i < 40 && seen.size < 2; i++) seen.add((await whoami(state, termination)).instance);
      expect([...seen].sort()).toEqual(['data-service-1', 'data-service-2']);
    }
  });

  test('the stats page, its health URI and (when HAProxy has the exporter) /metrics answer', async () => {
    const page = await request(state.router.statsUrl, { agent: false });
    expect(page.status).toBe(200);
    expect(page.body.toString()).toMatch(/Statistics Report/);
    expect((await request(`${state.router.statsUrl}healthz`, { agent: false })).status).toBe(200);
    if (state.router.metricsUrl) {
      const metrics = await request(state.router.metricsUrl, { agent: false });
      expect(metrics.body.toString()).toContain(`haproxy_process_nbthread ${state.router.threads}`);
    }
  });

  test('lab:up again reports the running lab and starts nothing', async () => {
    const again = await lab.up({ env, log: () => {} });
    expect(again.alreadyRunning).toBe(true);
    expect(again.router.pid).toBe(state.router.pid);
  });

  test('lab:status reports every route answering and every server UP', async () => {
    const report = await lab.status({ env });
    expect(report.running).toBe(true);
    expect(report.routes.every((r) => r.probe.ok)).toBe(true);
    expect(report.processes.map((p) => p.name).sort()).toEqual([
      'data-service-1',
      'data-service-2',
      'redis-1',
      'router',
    ]);
    expect(report.servers.rows).toHaveLength(8);
    expect(report.servers.rows.every((s) => s.status === 'UP')).toBe(true);
  });

  test('the status CLI prints each route, each process and the stats URL', async () => {
    const out = await new Promise((resolve) => {
      const child = spawn(process.execPath, [path.join(__dirname, '../../bin/lab-status.js')], { env });
      let text = '';
      child.stdout.on('data', (c) => (text += c));
      child.on('exit', (code) => resolve({ code, text }));
    });
    expect(out.code).toBe(0);
    for (const r of state.routes) expect(out.text).toContain(r.url);
    expect(out.text).toContain(state.router.statsUrl);
    expect(out.text).toMatch(new RegExp(`data-service-1\\s+${state.instances[0].pid}\\s+ready`));
  });

  test('a rolling restart (lab:rollout) under load loses no request', async () => {
    let done = false;
    const ca = fs.readFileSync(state.certs.labCA);
    const loads = ['http', 'reencrypt'].map((t) =>
      loadLoop(`${route(state, t).url}/api/whoami`, { concurrency: 4, until: () => done, maxMs: 60000, ca }),
    );
    try {
      await sleep(500);
      const rolled = await lab.rollout({ env, log: () => {} });
      await sleep(500);
      expect(rolled.instances.map((i) => i.pid)).not.toEqual(state.instances.map((i) => i.pid));
      expect(lab.readLabState(env.LAB_DIR).instances).toEqual(rolled.instances);
      // Started again from lab.json, each instance still has the lab's shared session ticket keys.
      for (const { pid } of rolled.instances) {
        const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        expect(environ).toContain(`TLS_TICKET_KEYS_FILE=${state.certs.serviceTicketKeys}`);
      }
      state = rolled;
    } finally {
      done = true;
    }
    for (const result of await Promise.all(loads)) {
      expect(result.failures).toEqual([]);
      expect(Object.keys(result.byInstance).sort()).toEqual(['data-service-1', 'data-service-2']);
    }
    expect((await lab.status({ env })).running).toBe(true);
  });

  test('a replica that gets SIGTERM under load loses no request', async () => {
    const victim = state.instances[0];
    let victimExitedAt = 0;
    const stopWhen = () => victimExitedAt && Date.now() - victimExitedAt > 1000;
    const http = loadLoop(`${route(state, 'http').url}/api/whoami`, {
      concurrency: 4,
      until: stopWhen,
      maxMs: 45000,
    });
    const edge = loadLoop(`${route(state, 'edge').url}/api/whoami`, {
      concurrency: 4,
      until: stopWhen,
      maxMs: 45000,
      ca: fs.readFileSync(state.certs.labCA),
    });
    await sleep(1000);
    process.kill(victim.pid, 'SIGTERM');
    // The router must take the victim out of every backend while it is still serving (draining).
    let outOfRotationWhileAlive = false;
    while (isAlive(victim.pid)) {
      const statuses = await instanceServerStates(state, victim);
      if (statuses.length === 4 && statuses.every((s) => s.startsWith('DOWN')) && isAlive(victim.pid)) {
        outOfRotationWhileAlive = true;
        break;
      }
      await sleep(100);
    }
    while (isAlive(victim.pid)) await sleep(100);
    victimExitedAt = Date.now();
    const results = await Promise.all([http, edge]);
    expect(outOfRotationWhileAlive).toBe(true);
    for (const result of results) {
      expect(result.failures).toEqual([]);
      expect(result.byInstance['data-service-1']).toBeGreaterThan(0);
      expect(result.byInstance['data-service-2']).toBeGreaterThan(0);
    }
  });

  test('lab:down stops everything, also after a process died, and never a pid that is not ours', async () => {
    // data-service-1 exited in the previous test. Pretend a pid file points at a process that is
    // not ours (what a reused pid looks like): lab:down must leave it alone.
    const stranger = spawn('sleep', ['60'], { stdio: 'ignore' });
    fs.writeFileSync(path.join(env.LAB_DIR, 'pids', 'redis-9.pid'), `${stranger.pid}\n`);
    fs.writeFileSync(
      path.join(env.LAB_DIR, 'pids', 'redis-9.json'),
      JSON.stringify({
        name: 'redis-9',
        role: 'redis',
        pid: stranger.pid,
        match: 'redis-server',
        startTime: null,
      }),
    );
    try {
      const { stopped } = await lab.down({ env, log: () => {} });
      const how = Object.fromEntries(stopped.map((s) => [s.name, s.result]));
      expect(how).toMatchObject({
        router: 'stopped',
        'data-service-1': 'gone',
        'data-service-2': 'stopped',
        'redis-1': 'stopped',
        'redis-9': 'foreign',
      });
      expect(isAlive(stranger.pid)).toBe(true);
      expect(await aliveOrListening(labFootprint(state))).toEqual({ alive: [], listening: [] });
      expect(lab.readLabState(env.LAB_DIR)).toBeNull();
      expect(fs.readdirSync(path.join(env.LAB_DIR, 'pids'))).toEqual([]);
    } finally {
      stranger.kill('SIGKILL');
    }
  });
});
