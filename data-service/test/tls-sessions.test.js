'use strict';
// Session resumption on the real process's HTTPS listener: a passthrough Route spreads a client
// over the pods; with one TLS_TICKET_KEYS_FILE for all, a session resumes on any of them, without
// it only where it was issued. /metrics counts new and resumed sessions, which the router cannot see.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const tls = require('node:tls');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { createCA, createServerCert } = require('../../lib/core/certs');
const { testRedis, startService, tempDir, waitFor, SERVER } = require('./helpers');

const run = promisify(execFile);
const HOST = 'data-service.router-lab.svc';

let redis;
let dir;
let ca;
let leaf;
let caPem;
const services = [];
beforeAll(async () => {
  redis = await testRedis();
  dir = tempDir('tls-sessions');
  ca = createCA(dir, 'service-ca', { commonName: 'Test service CA' });
  caPem = fs.readFileSync(ca.cert);
  leaf = createServerCert(path.join(dir, 'issued'), 'service', { ca, dnsNames: [HOST] });
  fs.writeFileSync(path.join(dir, 'ticket-keys'), crypto.randomBytes(48));
});
afterAll(async () => {
  for (const s of services) expect((await s.stop()).code).toBe(0);
  await redis?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(extra = {}) {
  const env = { REDIS_URL: redis.url, TLS_CERT_FILE: leaf.cert, TLS_KEY_FILE: leaf.key, DRAIN_DELAY_MS: '0' };
  // Arguments of its own, as the lab's instances have (Node's default session context hashes them).
  const args = [`--test-instance=${services.length + 1}`];
  const service = await startService({ ...env, ...extra }, { tls: true, args });
  services.push(service);
  return service;
}

/**
 * A request over a new TLS connection to `port`, offering `session`: { reused, ticket } (the
 * ticket TLS 1.3 sends after the handshake, to offer next time).
 */
function request(port, session) {
  return new Promise((resolve, reject) => {
    let ticket = null;
    let reused = null;
    const socket = tls.connect({ host: '127.0.0.1', port, servername: HOST, ca: caPem, session });
    socket.on('session', (s) => (ticket = s));
    socket.once('secureConnect', () => {
      reused = socket.isSessionReused();
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`);
    });
    socket.on('data', () => {});
    socket.on('end', () => resolve({ reused, ticket }));
    socket.on('error', reject);
  });
}

/** The service's TLS sessions by kind, from its /metrics. */
async function sessions(service) {
  const text = await (await fetch(`${service.base}/metrics`)).text();
  const count = (kind) =>
    Number(text.match(new RegExp(`data_service_tls_sessions_total\\{session="${kind}"\\} (\\d+)`))?.[1] ?? 0);
  return { new: count('new'), resumed: count('resumed') };
}

test('with one TLS_TICKET_KEYS_FILE, a session from one instance resumes on another; /metrics counts both', async () => {
  const keys = { TLS_TICKET_KEYS_FILE: path.join(dir, 'ticket-keys') };
  const [a, b] = [await start(keys), await start(keys)];
  const first = await request(a.tlsPort);
  expect(first).toMatchObject({ reused: false, ticket: expect.any(Buffer) });
  expect((await request(b.tlsPort, first.ticket)).reused).toBe(true);
  expect(await sessions(a)).toEqual({ new: 1, resumed: 0 });
  expect(await sessions(b)).toEqual({ new: 0, resumed: 1 });
});

test('a certificate reloaded without a restart keeps the shared sessions', async () => {
  // B's own copy of the pair, rewritten in place below as a rotated secret would be.
  const own = path.join(dir, 'rotating');
  fs.mkdirSync(own, { recursive: true });
  for (const [from, to] of [
    [leaf.cert, 'tls.crt'],
    [leaf.key, 'tls.key'],
  ])
    fs.copyFileSync(from, path.join(own, to));
  const keys = { TLS_TICKET_KEYS_FILE: path.join(dir, 'ticket-keys') };
  const a = await start(keys);
  const b = await start({
    ...keys,
    TLS_CERT_FILE: path.join(own, 'tls.crt'),
    TLS_KEY_FILE: path.join(own, 'tls.key'),
    TLS_RELOAD_INTERVAL_MS: '100',
  });
  const rotated = createServerCert(path.join(dir, 'rotated'), 'service', { ca, dnsNames: [HOST] });
  fs.copyFileSync(rotated.key, path.join(own, 'tls.key'));
  fs.copyFileSync(rotated.cert, path.join(own, 'tls.crt'));
  await waitFor(() => /TLS certificate reloaded/.test(b.output()), 5000, "B's certificate reload");
  const first = await request(a.tlsPort);
  expect((await request(b.tlsPort, first.ticket)).reused).toBe(true);
});

test('with keys of its own, an instance resumes only its own sessions', async () => {
  const [c, d] = [await start(), await start()];
  const first = await request(c.tlsPort);
  expect((await request(d.tlsPort, first.ticket)).reused).toBe(false);
  expect((await request(c.tlsPort, first.ticket)).reused).toBe(true);
  expect(await sessions(d)).toEqual({ new: 1, resumed: 0 });
  expect(await sessions(c)).toEqual({ new: 1, resumed: 1 });
});

test.each([
  [
    'a file of 47 bytes',
    47,
    true,
    /^data-service: invalid configuration: TLS_TICKET_KEYS_FILE must hold 48 bytes, .* holds 47/,
  ],
  [
    'keys without the HTTPS listener',
    48,
    false,
    /TLS_TICKET_KEYS_FILE.*is for the HTTPS listener: set TLS_CERT_FILE and TLS_KEY_FILE too/,
  ],
])('%s stops the service at start, naming the variable', async (_, bytes, withTls, message) => {
  const file = path.join(dir, `keys-${bytes}`);
  fs.writeFileSync(file, crypto.randomBytes(bytes));
  const tlsFiles = withTls ? { TLS_CERT_FILE: leaf.cert, TLS_KEY_FILE: leaf.key } : {};
  const error = await run(process.execPath, [SERVER], {
    env: { PATH: process.env.PATH, PORT: '0', TLS_PORT: '0', TLS_TICKET_KEYS_FILE: file, ...tlsFiles },
    timeout: 10000,
  }).then(
    () => null,
    (err) => err,
  );
  expect(error.code).toBe(78);
  expect(error.stderr).toMatch(message);
});
