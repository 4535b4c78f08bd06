'use strict';
// The router behaves like OpenShift's on every HAProxy the lab supports (the system's 2.6 here, the
// pinned 3.2): a lab per binary (LAB_HAPROXY), lab:up's own route and ALPN checks, and what a
// client sees from outside (openssl s_client, raw requests).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const tls = require('node:tls');
const { execFileSync } = require('node:child_process');
const { findOnPath, requireTool } = require('../../lib/core/tools');
const { isAlive } = require('../../lib/core/processes');
const { PINNED_BIN, HAPROXY_PIN, haproxyVersion, locatePinned } = require('../../lib/setup/haproxy-build');
const { resolveTarget } = require('../../lib/matrix/target');
const { runK6Sample } = require('../../lib/load/k6');
const { reduceSummaries } = require('../../lib/results-model/reduce');
const { checkAlpn } = require('../../lib/lab/haproxy/alpn');
const { formatLab } = require('../../lib/lab/format');
const { createCA, createServerCert } = require('../../lib/core/certs');
const { useLab, useTempDir, labEnv, quietLog, route, whoami } = require('./helpers');
const { ROOT } = require('../../lib/core/paths');

const MATRIX = path.join(ROOT, 'bin', 'matrix.js');

jest.setTimeout(120000);

const pinnedVersion = haproxyVersion(PINNED_BIN);
const system = findOnPath('haproxy');
const pinnedBuilt = locatePinned(HAPROXY_PIN)?.tooOld === false;
const HAPROXIES = [
  { label: `the system's HAProxy (${system})`, file: system, available: Boolean(system), source: 'system' },
  {
    label: `the pinned HAProxy ${pinnedVersion} (.tools/bin/haproxy)`,
    file: PINNED_BIN,
    available: pinnedBuilt,
    source: 'pinned',
  },
];

/** `openssl s_client` from outside: { alpn ('h2', 'http/1.1' or null), certificates (count) }. */
function sClient(state, host) {
  let out;
  try {
    out = execFileSync(
      requireTool('openssl'),
      [
        's_client',
        '-connect',
        `127.0.0.1:${state.router.httpsPort}`,
        '-servername',
        host,
        '-alpn',
        'h2,http/1.1',
        '-showcerts',
      ],
      { input: '', encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], timeout: 15000 },
    );
  } catch (err) {
    out = `${err.stdout || ''}`;
  }
  const alpn = (/^ALPN protocol: (\S+)/m.exec(out) || [])[1] || null;
  return { alpn, certificates: (out.match(/-----BEGIN CERTIFICATE-----/g) || []).length, out };
}

/** A raw HTTP/1.1 request (over TLS for https routes): resolves with the status code. */
function rawRequest(state, termination, text) {
  const r = route(state, termination);
  const secure = r.url.startsWith('https:');
  const port = secure ? state.router.httpsPort : state.router.httpPort;
  return new Promise((resolve, reject) => {
    const socket = secure
      ? tls.connect({ host: '127.0.0.1', port, servername: r.host, ca: fs.readFileSync(state.certs.labCA) })
      : net.connect({ host: '127.0.0.1', port });
    let data = '';
    socket.setTimeout(10000, () => socket.destroy(new Error('no answer in 10 s')));
    socket.on(secure ? 'secureConnect' : 'connect', () => socket.write(text(r.host)));
    socket.on('data', (chunk) => {
      data += chunk;
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(data);
      if (status) {
        resolve(Number(status[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`connection closed without a status: ${data.slice(0, 200)}`)));
  });
}

/** A short, bounded k6 cell (router-matrix.js, 4 VUs, 2 s) through the lab: the protocols it recorded. */
async function k6CellProtocols(lab$, termination) {
  const { target } = resolveTarget({ target: 'lab' }, lab$.env);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-k6-'));
  try {
    const run = await runK6Sample({
      k6: requireTool('k6'),
      cell: { name: `${termination}:1k:keepalive`, termination, pageSize: 1024, connection: 'keepalive' },
      opts: { vus: 4 },
      target,
      durationSeconds: 1,
      summaryPath: path.join(dir, 'summary.json'),
    });
    expect(run.code).toBe(0);
    return reduceSummaries([run.summary], { combine: 'sequential' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The router's twelve X-SSL* client headers, each a value a client could forge. */
const X_SSL = [
  'X-SSL',
  'X-SSL-Client-CN',
  'X-SSL-Client-DER',
  'X-SSL-Client-DN',
  'X-SSL-Client-NotAfter',
  'X-SSL-Client-NotBefore',
  'X-SSL-Client-SHA1',
  'X-SSL-Client-Serial',
  'X-SSL-Client-Subject',
  'X-SSL-Client-Verify',
  'X-SSL-Client-Version',
  'X-SSL-Issuer',
];

for (const haproxy of HAPROXIES) {
  const suite = haproxy.available ? describe : describe.skip;
  const name = haproxy.available
    ? `the router on ${haproxy.label}`
    : `the router on ${haproxy.label}: SKIPPED, not built here (run 'npm run setup -- --for lab')`;

  suite(name, () => {
    const lab$ = useLab({ LAB_HAPROXY: haproxy.file, LAB_REPLICAS: '1', LAB_CHECK_INTERVAL_MS: '500' });

    test('lab:up verified every route and the ALPN policy, and recorded the binary', () => {
      const { router } = lab$.state;
      expect(router.haproxy).toMatchObject({ path: haproxy.file, source: 'LAB_HAPROXY' });
      expect(router.haproxy.openssl).toMatch(/^OpenSSL \d/);
      expect(router.alpn).toEqual({ policy: 'http/1.1', negotiated: { edge: null, reencrypt: null } });
      // lab:up and lab:status say which binary runs, on which OpenSSL, with which ALPN policy.
      expect(formatLab(lab$.state)).toContain(
        `  haproxy  ${router.haproxy.version} (LAB_HAPROXY: ${haproxy.file}), ${router.haproxy.openssl}; ALPN http/1.1; ` +
          `OpenShift 4.22 Intermediate profile, groups ${router.tls.groups.join(':')}`,
      );
    });

    test('openssl s_client -alpn h2,http/1.1: edge and re-encrypt negotiate no h2', () => {
      for (const termination of ['edge', 'reencrypt']) {
        const seen = sClient(lab$.state, route(lab$.state, termination).host);
        expect(seen.out).toMatch(/No ALPN negotiated/);
        expect(seen.alpn).toBeNull();
      }
    });

    test('a k6 cell through the edge route records HTTP/1.1 for every response', async () => {
      const cell = await k6CellProtocols(lab$, 'edge');
      expect(cell.requests).toBeGreaterThan(0);
      expect(cell.protocols).toEqual({ 'HTTP/1.1': cell.requests });
    });

    test('the default certificate is served as a chain of two: the leaf, then its CA', () => {
      const seen = sClient(lab$.state, route(lab$.state, 'edge').host);
      expect(seen.certificates).toBe(2);
      expect(seen.out).toMatch(/1 s:CN ?= ?Router Lab CA/);
    });

    test.each(['http', 'edge', 'reencrypt'])(
      'a request with an empty Content-Length is refused through %s (CVE-2023-40225)',
      async (termination) => {
        const status = await rawRequest(
          lab$.state,
          termination,
          (host) => `POST /api/records HTTP/1.1\r\nHost: ${host}\r\nContent-Length:\r\n\r\n`,
        );
        // 400: both HAProxies the lab runs refuse it while parsing (their CVE fix), before the
        // router's own deny (a 403) is reached; the deny is rendered all the same, for an HAProxy
        // without the fix (router-config.test.js checks it is there).
        expect(status).toBe(400);
        // A well-formed request passes, its Host upper-cased: the router lower-cases it before
        // looking the route up.
        const ok = await rawRequest(
          lab$.state,
          termination,
          (host) => `GET /api/whoami HTTP/1.1\r\nHost: ${host.toUpperCase()}\r\nConnection: close\r\n\r\n`,
        );
        expect(ok).toBe(200);
      },
    );

    test.each(['http', 'edge', 'reencrypt'])(
      "a client's own X-SSL* headers do not reach the service through %s",
      async (termination) => {
        const headers = Object.fromEntries(X_SSL.map((h) => [h, 'forged']));
        // X-SSL-Client-Cert is not one of the router's twelve (it never sets it), so the router
        // passes it on: the lab does the same, on purpose.
        const seen = await whoami(lab$.state, termination, {
          headers: { ...headers, 'X-SSL-Client-Cert': 'forged' },
        });
        expect(seen.sslHeaders).toEqual({ 'x-ssl-client-cert': 'forged' });
      },
    );
  });
}

const h2Suite = pinnedBuilt ? describe : describe.skip;
describe('LAB_ROUTER_HTTP2=true (the IngressController default-enable-http2)', () => {
  h2Suite(`on the pinned HAProxy ${pinnedVersion}`, () => {
    const lab$ = useLab({ LAB_HAPROXY: PINNED_BIN, LAB_ROUTER_HTTP2: 'true', LAB_REPLICAS: '1' });
    const out = useTempDir('rlab-h2-matrix-');

    test('openssl s_client -alpn h2,http/1.1: edge and re-encrypt negotiate h2, each with its route certificate', () => {
      expect(lab$.state.router.alpn).toEqual({
        policy: 'h2,http/1.1',
        negotiated: { edge: 'h2', reencrypt: 'h2' },
      });
      for (const termination of ['edge', 'reencrypt']) {
        const { host } = route(lab$.state, termination);
        const seen = sClient(lab$.state, host);
        expect(seen.alpn).toBe('h2');
        expect(seen.out).toMatch(new RegExp(`0 s:CN ?= ?${host.replace(/\./g, '\\.')}`));
      }
    });

    test('a k6 cell through the edge route then records HTTP/2.0', async () => {
      const cell = await k6CellProtocols(lab$, 'edge');
      expect(cell.protocols).toEqual({ 'HTTP/2.0': cell.requests });
    });

    test('the matrix puts h1 and h2 cells side by side, each with its evidence, and says why an h2 cell cannot run', () => {
      const cellsArg = [
        'edge:1k:keepalive',
        'edge:1k:keepalive:h2',
        'reencrypt:1k:keepalive:h2',
        'passthrough:1k:keepalive:h2',
        'edge:1k:close:full:h2',
      ].join(',');
      const args = '--quick --warmup 0 --cooldown 0 --duration 2 --cross-check --no-report'.split(' ');
      execFileSync(process.execPath, [MATRIX, ...args, '--cells', cellsArg, '--out', out], {
        env: lab$.env,
        stdio: 'ignore',
        timeout: 240000,
      });
      const results = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
      const cell = (name) => results.cells.find((c) => c.name === name);
      // The router offers both: the h1 cell's client was held to HTTP/1.1, the h2 cell's got h2.
      expect(cell('edge:1k:keepalive').protocols).toEqual({ 'HTTP/1.1': cell('edge:1k:keepalive').requests });
      // The router's own stream counters witness it too: the requests it received were of that version.
      expect(cell('edge:1k:keepalive').protocolEvidence).toMatchObject({ claim: 'h1', holds: true });
      expect(cell('edge:1k:keepalive').protocolEvidence.routerSharePct).toBeGreaterThanOrEqual(99);
      expect(cell('edge:1k:keepalive:h2').protocolEvidence).toMatchObject({
        claim: 'h2',
        holds: true,
        sharePct: 100,
      });
      expect(cell('edge:1k:keepalive:h2').protocolEvidence.routerSharePct).toBeGreaterThanOrEqual(99);
      expect(cell('edge:1k:keepalive:h2').router.counters.streams.received.h2).toBeGreaterThan(0);
      // wrk speaks HTTP/1.1 only: haload, forced to h2, cross-checks the h2 cells.
      expect(cell('edge:1k:keepalive').crossCheck.tool).toBe('wrk');
      expect(cell('edge:1k:keepalive:h2').crossCheck).toMatchObject({ tool: 'haload', errors: 0 });
      expect(cell('edge:1k:keepalive:h2').crossCheck.rps).toBeGreaterThan(0);
      // Re-encrypt h2: the router spoke HTTP/1.1 to the data service, which answers ALPN so.
      expect(cell('reencrypt:1k:keepalive:h2').protocolEvidence.backend).toBe(
        'router to service: HTTP/1.1 (100.0 % of the router’s streams to it; the service answers ALPN with http/1.1)',
      );
      // haload does not open a connection per request over h2: its close figures are not counted.
      expect(cell('edge:1k:close:full:h2').crossCheck.skipped).toMatch(
        /not one per request \(over h2 it reuses them\)/,
      );
      expect(results.skippedCells).toEqual([
        {
          name: 'passthrough:1k:keepalive:h2',
          reason:
            'the data service behind a passthrough route answers ALPN with http/1.1 only, so no client gets h2 there',
        },
      ]);
    });
  });
});

const disguisedSuite = pinnedBuilt ? describe : describe.skip;
disguisedSuite(`the pinned HAProxy ${pinnedVersion} disguised as 2.6 (rendered without no-alpn)`, () => {
  const dir = useTempDir('rlab-disguise-');

  test('lab:up refuses the h2 it did not ask for, names the route, and leaves nothing running', async () => {
    // `haproxy -vv` says 2.6, so the lab renders no `no-alpn`; what runs is 3.2, which then offers
    // h2 by default: exactly what a version the lab misjudged would do on a user's machine.
    const wrapper = path.join(dir, 'haproxy');
    fs.writeFileSync(
      wrapper,
      [
        '#!/bin/sh',
        'for arg in "$@"; do',
        `  case "$arg" in -v|-vv) "${PINNED_BIN}" "$@" | sed 's/version ${pinnedVersion}/version 2.6.99/'; exit ;; esac`,
        'done',
        `exec "${PINNED_BIN}" "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const lab = require('../../lib/lab/index');
    const env = labEnv({ LAB_HAPROXY: wrapper, LAB_REPLICAS: '1' });
    const log = quietLog();
    try {
      await expect(lab.up({ env, log })).rejects.toThrow(
        /the edge route negotiated 'h2' over ALPN when offered h2,http\/1\.1, but the router was rendered for http\/1\.1: this HAProxy offers h2 where OpenShift's router does not/,
      );
      expect(log.lines).toContain('Start-up failed: stopping what was started');
      const stopped = log.lines.map((line) => /^\s+(\S+)\s+pid (\d+)/.exec(line)).filter(Boolean);
      expect(stopped.map(([, name]) => name)).toEqual(
        expect.arrayContaining(['router', 'redis-1', 'data-service-1']),
      );
      expect(stopped.map(([, , pid]) => Number(pid)).filter((pid) => isAlive(pid))).toEqual([]);
    } finally {
      await lab.down({ env, log: () => {} });
      fs.rmSync(env.LAB_DIR, { recursive: true, force: true });
    }
  });
});

test('the ALPN check names the route that negotiated h2 the router was not rendered for', async () => {
  // A TLS server that selects h2, as HAProxy 2.8+ does on a bind without no-alpn.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-alpn-'));
  const ca = createCA(dir, 'ca');
  const host = 'data-service-edge-router-lab.apps.lab.localhost';
  const leaf = createServerCert(dir, 'leaf', { ca, dnsNames: [host] });
  const server = tls.createServer({
    cert: fs.readFileSync(leaf.cert),
    key: fs.readFileSync(leaf.key),
    ALPNProtocols: ['h2', 'http/1.1'],
  });
  server.on('secureConnection', (socket) => socket.end());
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const routes = [{ termination: 'edge', host }];
    const args = { port: server.address().port, routes, labCA: ca.cert };
    await expect(checkAlpn({ ...args, policy: 'http/1.1' })).rejects.toThrow(
      /the edge route negotiated 'h2' over ALPN when offered h2,http\/1\.1, but the router was rendered for http\/1\.1/,
    );
    await expect(checkAlpn({ ...args, policy: 'h2,http/1.1' })).resolves.toEqual({ edge: 'h2' });
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
