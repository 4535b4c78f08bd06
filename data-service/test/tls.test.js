'use strict';
// The HTTPS listener of the real process: what whoami sees over TLS, the TLS 1.2 floor, and
// certificate reload without restart, both as Kubernetes swaps a mounted secret (the `..data`
// symlink) and as a file rewritten in place.
const fs = require('node:fs');
const path = require('node:path');
const https = require('node:https');
const tls = require('node:tls');
const { createCA, createServerCert } = require('../../lib/core/certs');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { testRedis, startService, tempDir, sleep, waitFor, SERVER } = require('./helpers');

const run = promisify(execFile);

const SERVICE_HOST = 'data-service.router-lab.svc';

let redis;
let dir;
let ca;
beforeAll(async () => {
  redis = await testRedis();
  dir = tempDir('tls');
  ca = createCA(dir, 'service-ca', { commonName: 'Test service CA' });
});
afterAll(async () => {
  await redis?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function issue(name) {
  return createServerCert(path.join(dir, 'issued'), name, {
    ca,
    dnsNames: [SERVICE_HOST],
    ipAddresses: ['127.0.0.1'],
  });
}

/** A Kubernetes-style secret mount: tls.crt -> ..data/tls.crt, ..data -> ..<version>/. */
function mountSecret(mount, version, leaf) {
  const versionDir = path.join(mount, `..${version}`);
  fs.mkdirSync(versionDir, { recursive: true });
  fs.copyFileSync(leaf.cert, path.join(versionDir, 'tls.crt'));
  fs.copyFileSync(leaf.key, path.join(versionDir, 'tls.key'));
  const tmpLink = path.join(mount, '..data_tmp');
  fs.symlinkSync(`..${version}`, tmpLink);
  fs.renameSync(tmpLink, path.join(mount, '..data')); // the atomic swap kubelet does
  for (const file of ['tls.crt', 'tls.key']) {
    if (!fs.existsSync(path.join(mount, file)))
      fs.symlinkSync(path.join('..data', file), path.join(mount, file));
  }
}

/** GET over a fresh TLS connection; resolves with { status, body, serial, protocol }. */
function httpsGet(port, urlPath, { servername = SERVICE_HOST } = {}) {
  return new Promise((resolve, reject) => {
    const req = https.get(
      { host: '127.0.0.1', port, path: urlPath, servername, ca: fs.readFileSync(ca.cert), agent: false },
      (res) => {
        const cert = res.socket.getPeerCertificate();
        const protocol = res.socket.getProtocol();
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body,
            serial: cert.serialNumber,
            protocol,
          }),
        );
      },
    );
    req.on('error', reject);
  });
}

const serialOf = (leaf) =>
  new (require('node:crypto').X509Certificate)(fs.readFileSync(leaf.cert)).serialNumber;

async function waitForSerial(port, serial, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let seen;
  while (Date.now() < deadline) {
    seen = (await httpsGet(port, '/healthz')).serial;
    if (seen === serial) return;
    await sleep(100);
  }
  throw new Error(`the service still presents serial ${seen}, expected ${serial}`);
}

describe('HTTPS listener', () => {
  let service;
  let mount;
  let first;
  beforeAll(async () => {
    mount = path.join(dir, 'secret');
    first = issue('first');
    mountSecret(mount, 'v1', first);
    service = await startService(
      {
        REDIS_URL: redis.url,
        TLS_CERT_FILE: path.join(mount, 'tls.crt'),
        TLS_KEY_FILE: path.join(mount, 'tls.key'),
        // Long poll interval: the reload below must come from watching the directory.
        TLS_RELOAD_INTERVAL_MS: '600000',
        DRAIN_DELAY_MS: '0',
      },
      { tls: true },
    );
  });
  afterAll(async () => {
    if (service) expect((await service.stop()).code).toBe(0);
  });

  test('whoami over TLS reports tls, the SNI it received and HTTP/1.1', async () => {
    const res = await httpsGet(service.tlsPort, '/api/whoami');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      instance: 'proc-test',
      tls: true,
      tlsServername: SERVICE_HOST,
      httpVersion: '1.1',
      peer: { address: '127.0.0.1', port: expect.any(Number) },
      forwarded: {},
      sslHeaders: {},
    });
    expect(res.headers['server-timing']).toMatch(/^app;dur=/);
    expect(res.serial).toBe(serialOf(first));
  });

  test('without SNI, tlsServername is null; the plain listener reports tls false', async () => {
    const res = await httpsGet(service.tlsPort, '/api/whoami', { servername: '' });
    expect(JSON.parse(res.body)).toMatchObject({ tls: true, tlsServername: null });
    const plain = await fetch(`${service.base}/api/whoami`);
    expect(await plain.json()).toMatchObject({ tls: false, tlsServername: null });
  });

  test('TLS 1.2 and 1.3 are accepted, TLS 1.1 is refused by the service', async () => {
    const handshake = (options) =>
      new Promise((resolve, reject) => {
        const socket = tls.connect({
          host: '127.0.0.1',
          port: service.tlsPort,
          servername: SERVICE_HOST,
          ca: fs.readFileSync(ca.cert),
          ...options,
        });
        socket.once('secureConnect', () => {
          resolve(socket.getProtocol());
          socket.end();
        });
        socket.once('error', reject);
      });
    expect(await handshake({ minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' })).toBe('TLSv1.2');
    expect(await handshake({ minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' })).toBe('TLSv1.3');
    // The client lowers its own security level so that the refusal can only come from the server.
    await expect(
      handshake({ minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }),
    ).rejects.toThrow(/protocol version|unsupported protocol/i);
  });

  test('a rotated secret (symlink swap) is served to new connections without a restart', async () => {
    const second = issue('second');
    expect(serialOf(second)).not.toBe(serialOf(first));
    mountSecret(mount, 'v2', second);
    await waitForSerial(service.tlsPort, serialOf(second), 10000);
    expect(service.logs().some((l) => l.msg === 'TLS certificate reloaded')).toBe(true);
    expect(service.child.exitCode).toBeNull();
  });

  test('a half-written pair is ignored and the current certificate kept', async () => {
    const current = (await httpsGet(service.tlsPort, '/healthz')).serial;
    const refusals = () =>
      service.logs().filter((l) => l.msg === 'certificate files unusable; keeping the current one').length;
    const refusedBefore = refusals();
    const third = issue('third');
    // A new certificate with the old key: unusable, so the service keeps what it has.
    mountSecret(mount, 'v3', {
      cert: third.cert,
      key: path.join(fs.realpathSync(path.join(mount, '..data')), 'tls.key'),
    });
    // Wait until the service has looked at the pair and refused it, then check it kept serving.
    await waitFor(() => refusals() > refusedBefore, 10000, 'the refusal of the half-written pair');
    expect((await httpsGet(service.tlsPort, '/healthz')).serial).toBe(current);
    mountSecret(mount, 'v4', third);
    await waitForSerial(service.tlsPort, serialOf(third), 10000);
  });
});

test('a certificate and key that do not match stop the service at start, naming the variables', async () => {
  const a = issue('mismatch-a');
  const b = issue('mismatch-b');
  const error = await run(process.execPath, [SERVER], {
    env: { PATH: process.env.PATH, PORT: '0', TLS_PORT: '0', TLS_CERT_FILE: a.cert, TLS_KEY_FILE: b.key },
    timeout: 10000,
  }).then(
    () => null,
    (err) => err,
  );
  expect(error.code).toBe(78);
  expect(error.stderr).toMatch(
    /^data-service: invalid configuration: TLS_CERT_FILE and TLS_KEY_FILE are not a usable pair/,
  );
});

describe('certificate files rewritten in place, found by polling', () => {
  test('the new certificate is served within the poll interval', async () => {
    const files = path.join(dir, 'plain');
    fs.mkdirSync(files, { recursive: true });
    const a = issue('poll-a');
    fs.copyFileSync(a.cert, path.join(files, 'tls.crt'));
    fs.copyFileSync(a.key, path.join(files, 'tls.key'));
    const service = await startService(
      {
        REDIS_URL: redis.url,
        TLS_CERT_FILE: path.join(files, 'tls.crt'),
        TLS_KEY_FILE: path.join(files, 'tls.key'),
        TLS_RELOAD_INTERVAL_MS: '300',
        DRAIN_DELAY_MS: '0',
      },
      { tls: true },
    );
    try {
      expect((await httpsGet(service.tlsPort, '/healthz')).serial).toBe(serialOf(a));
      const b = issue('poll-b');
      fs.writeFileSync(path.join(files, 'tls.key'), fs.readFileSync(b.key));
      fs.writeFileSync(path.join(files, 'tls.crt'), fs.readFileSync(b.cert));
      await waitForSerial(service.tlsPort, serialOf(b), 10000);
    } finally {
      expect((await service.stop()).code).toBe(0);
    }
  });
});
