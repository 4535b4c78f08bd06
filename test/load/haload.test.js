'use strict';
// haload on the tool runner against a real TLS server (Node's, HTTP/1.1 and h2 by ALPN): the SNI
// it sends (the patch setup applies), sessions resumed or not, h2 asked and got, a refused port
// and an address it cannot use each said clearly, an abort that stops it.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http2 = require('node:http2');
const { execFileSync } = require('node:child_process');
const { requireTool } = require('../../lib/core/tools');
const { freePort } = require('../../lib/core/ports');
const { createCA, createServerCert } = require('../../lib/core/certs');
const { runHaload } = require('../../lib/load/haload');

const haload = requireTool('haload');
const SNI = 'data-service-passthrough-router-lab.apps.lab.localhost';
let dir;
let server;
let port;
// What the server saw: one entry per TLS connection, one per request.
let connections;
let requests;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'haload-test-'));
  const ca = createCA(dir, 'ca', { keyType: 'ec' });
  const leaf = createServerCert(dir, 'server', { ca, dnsNames: [SNI], keyType: 'ec' });
  server = http2.createSecureServer(
    { key: fs.readFileSync(leaf.key), cert: fs.readFileSync(leaf.cert), allowHTTP1: true },
    (req, res) => {
      requests.push(req.httpVersion);
      res.end('x'.repeat(1024));
    },
  );
  server.on('secureConnection', (tls) =>
    connections.push({ sni: tls.servername, alpn: tls.alpnProtocol, resumed: tls.isSessionReused() }),
  );
  port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  connections = [];
  requests = [];
});

const load = (extra) =>
  runHaload({
    haload,
    url: `https://127.0.0.1:${port}/`,
    users: 2,
    threads: 1,
    durationSeconds: 1,
    rate: 200,
    ...extra,
  });

test('the SNI it is given on every connection, HTTP/1.1, sessions resumed by default', async () => {
  const run = await load({ sni: SNI, perConnection: 1 });
  expect(run.requests).toBeGreaterThan(50);
  expect(run.errors).toBe(0);
  expect(run.statuses['2xx']).toBe(run.requests);
  expect(run.rps).toBe(run.requests);
  expect(run.cpuCores).toBeGreaterThanOrEqual(0);
  // One request per connection: as many connections as requests, each with the SNI.
  expect(connections.length).toBeGreaterThanOrEqual(run.requests);
  expect(new Set(connections.map((c) => c.sni))).toEqual(new Set([SNI]));
  expect(new Set(requests)).toEqual(new Set(['1.1']));
  expect(connections.filter((c) => c.resumed).length).toBeGreaterThan(connections.length * 0.9);
});

test('resume: false makes every handshake a full one', async () => {
  const run = await load({ sni: SNI, perConnection: 1, resume: false });
  expect(run.requests).toBeGreaterThan(50);
  expect(connections.filter((c) => c.resumed)).toEqual([]);
});

test('HTTP/2 asked is HTTP/2 got (ALPN h2)', async () => {
  const run = await load({ protocol: 'h2' });
  expect(run.requests).toBeGreaterThan(50);
  expect(new Set(connections.map((c) => c.alpn))).toEqual(new Set(['h2']));
  expect(new Set(requests)).toEqual(new Set(['2.0']));
});

test('a refused port and an address haload cannot use each end in an error that names them', async () => {
  const refused = await freePort();
  await expect(load({ url: `http://127.0.0.1:${refused}/`, rate: 0 })).rejects.toThrow(
    new RegExp(`haload got no response from http://127\\.0\\.0\\.1:${refused}/: \\d+ connections failed`),
  );
  await expect(load({ url: 'http://no-such-host.invalid:80/' })).rejects.toThrow(
    /haload against http:\/\/no-such-host\.invalid:80\/ failed \(exit 1\):\ninvalid address: 'no-such-host\.invalid'/,
  );
});

test('an abort stops haload at once and rejects with AbortError', async () => {
  const controller = new AbortController();
  const run = load({ durationSeconds: 30, signal: controller.signal });
  setTimeout(() => controller.abort(), 500);
  await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  let left = '';
  try {
    left = execFileSync('pgrep', ['-x', 'haload', '-P', String(process.pid)], { encoding: 'utf8' });
  } catch {
    // pgrep exits 1 when nothing matches
  }
  expect(left).toBe('');
});
