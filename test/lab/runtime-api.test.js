'use strict';
// The router's runtime API against a real HAProxy: its own TLS counters tell full handshakes from
// resumed ones.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const { createCA, createServerCert } = require('../../lib/core/certs');
const { requireTool } = require('../../lib/core/tools');
const { freePort, waitForPort } = require('../../lib/core/ports');
const { startChild } = require('../../lib/core/processes');
const { parseInfo, showInfo, runtimeCommand } = require('../../lib/lab/runtime-api');

let dir;
let haproxy;
let port;
let socketPath;
let ca;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-runtime-'));
  ca = createCA(dir, 'ca');
  const cert = createServerCert(dir, 'router', { ca, dnsNames: ['runtime.test'] });
  port = await freePort();
  socketPath = path.join(dir, 'haproxy.sock');
  const config = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(
    config,
    [
      'global',
      `  stats socket ${socketPath} mode 600 level admin`,
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 5s',
      '  timeout server 5s',
      'frontend fe',
      `  bind 127.0.0.1:${port} ssl crt ${cert.pem}`,
      '  http-request return status 200',
      '',
    ].join('\n'),
  );
  haproxy = startChild(requireTool('haproxy'), ['-f', config]);
  await waitForPort(port, { what: 'haproxy' });
});

afterAll(async () => {
  if (haproxy) await haproxy.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** One TLS connection: resolves the session to resume next time, and whether this one resumed. */
function connect(session) {
  return new Promise((resolve, reject) => {
    let ticket = null;
    const socket = tls.connect({
      port,
      host: '127.0.0.1',
      servername: 'runtime.test',
      ca: fs.readFileSync(ca.cert),
      session,
    });
    socket.on('session', (s) => (ticket = s));
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      socket.write('GET / HTTP/1.1\r\nHost: runtime.test\r\nConnection: close\r\n\r\n');
    });
    socket.on('data', () => {});
    socket.once('end', () => resolve({ ticket, reused: socket.isSessionReused() }));
  });
}

test('show info is parsed into numbers and text', () => {
  expect(parseInfo('Name: HAProxy\nNbthread: 4\nSslFrontendSessionReuse_pct: 100\n')).toEqual({
    Name: 'HAProxy',
    Nbthread: 4,
    SslFrontendSessionReuse_pct: 100,
  });
});

test('full handshakes raise the key rate; resumed ones raise the reuse share', async () => {
  const first = await connect();
  expect(first.reused).toBe(false);
  let resumed = 0;
  for (let i = 0; i < 20; i++) if ((await connect(first.ticket)).reused) resumed++;
  expect(resumed).toBe(20);
  const info = await showInfo(socketPath);
  expect(info.CumSslConns).toBeGreaterThanOrEqual(21);
  expect(info.SslFrontendSessionReuse_pct).toBeGreaterThanOrEqual(90);
  for (let i = 0; i < 20; i++) await connect();
  const full = await showInfo(socketPath);
  expect(full.SslFrontendKeyRate).toBeGreaterThan(0);
  expect(full.SslFrontendSessionReuse_pct).toBeLessThan(info.SslFrontendSessionReuse_pct);
});

test('a socket that is not there is named in the error', async () => {
  await expect(runtimeCommand(path.join(dir, 'nope.sock'), 'show info')).rejects.toThrow(/nope\.sock/);
});
