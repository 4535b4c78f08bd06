'use strict';
// The handshake floor against real OpenSSL: keys read from real certificates, the group from a
// real TLS handshake, and the signature and key exchange timed by `openssl speed`.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const { createCA, createServerCert } = require('../../lib/core/certs');
const { requireTool } = require('../../lib/core/tools');
const { certificateKey, negotiate, parseSpeed, handshakeFloor } = require('../../lib/matrix/handshake-floor');

let dir;
let ca;
const certs = {};
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-floor-'));
  ca = createCA(dir, 'ca');
  certs.rsa = createServerCert(dir, 'rsa', { ca, dnsNames: ['floor.test'] });
  certs.ec = createServerCert(dir, 'ec', { ca, dnsNames: ['floor.test'], keyType: 'ec' });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the key type is read from the certificate', () => {
  expect(certificateKey(fs.readFileSync(certs.rsa.cert, 'utf8'))).toBe('rsa2048');
  expect(certificateKey(fs.readFileSync(certs.ec.cert, 'utf8'))).toBe('ecdsa-p256');
});

test.each([
  ['rsa', 'auto', 'X25519', 'rsa2048'],
  ['ec', 'P-256', 'P-256', 'ecdsa-p256'],
])(
  'a real handshake reports the negotiated group and the key (%s, curves %s)',
  async (kind, ecdhCurve, group, key) => {
    // The server answers ALPN as the data service does: http/1.1 only.
    const server = tls.createServer(
      {
        cert: fs.readFileSync(certs[kind].cert),
        key: fs.readFileSync(certs[kind].key),
        ecdhCurve,
        ALPNProtocols: ['http/1.1'],
      },
      (socket) => socket.end(),
    );
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const seen = await negotiate({
        port: server.address().port,
        servername: 'floor.test',
        ca: fs.readFileSync(ca.cert),
        alpn: ['h2', 'http/1.1'],
      });
      expect(seen).toEqual({ protocol: 'TLSv1.3', group, key, alpn: 'http/1.1' });
    } finally {
      server.close();
    }
  },
);

test('openssl speed -mr output is read as operations per second; anything else is refused', () => {
  expect(parseSpeed('+DT:rsa2048:1:2048\n+R2:2780:2048:1.00\n+F2:2:2048:2780.000000:51369.000000\n')).toBe(
    2780,
  );
  expect(parseSpeed('+F5:22:253:26309.473684:0.000038\n')).toBeCloseTo(26309.47, 1);
  expect(() => parseSpeed('Error: unknown algorithm\n')).toThrow(/no result line/);
});

test('the floor is the signature plus the key exchange, and RSA 2048 signs far slower than ECDSA P-256', async () => {
  const openssl = requireTool('openssl');
  const rsa = await handshakeFloor({ openssl, key: 'rsa2048', group: 'X25519', seconds: 1 });
  const ec = await handshakeFloor({ openssl, key: 'ecdsa-p256', group: 'X25519', seconds: 1 });
  expect(rsa.floorUs).toBeCloseTo(rsa.signUs + rsa.keyExchangeUs, 0);
  expect(rsa.signUs).toBeGreaterThan(3 * ec.signUs);
  expect(rsa.keyExchangeUs).toBeGreaterThan(0);
}, 60000);

test('a key or group it cannot time is named', async () => {
  await expect(handshakeFloor({ openssl: 'openssl', key: 'dsa1024', group: 'X25519' })).rejects.toThrow(
    /key 'dsa1024'/,
  );
  await expect(handshakeFloor({ openssl: 'openssl', key: 'rsa2048', group: 'ffdhe2048' })).rejects.toThrow(
    /group 'ffdhe2048'/,
  );
});

test.each([
  ['rsa2048', 'rsa2048'],
  ['ecdsa-p256', 'ecdsa-p256'],
])("LAB_ROUTER_KEY=%s makes the router's default certificate with that key", async (routerKey, key) => {
  const { createLabCerts } = require('../../lib/lab/common/lab-certs');
  const labCerts = await createLabCerts(path.join(dir, `lab-${routerKey}`), { routerKey });
  expect(certificateKey(fs.readFileSync(labCerts.defaultPem, 'utf8'))).toBe(key);
});
