'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { X509Certificate, createPrivateKey } = require('node:crypto');
const { generateKeys, createCA, createServerCert } = require('../../lib/core/certs');

describe('certs (real openssl)', () => {
  let dir;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-certs-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a server certificate is signed by its CA and carries exactly the names asked for', () => {
    const ca = createCA(dir, 'lab-ca', { commonName: 'Router Lab CA' });
    const leaf = createServerCert(dir, 'router', {
      ca,
      dnsNames: ['*.apps.lab.localhost'],
      ipAddresses: ['127.0.0.1'],
    });
    const caCert = new X509Certificate(fs.readFileSync(ca.cert));
    const cert = new X509Certificate(fs.readFileSync(leaf.cert));

    expect(caCert.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.subjectAltName).toBe('DNS:*.apps.lab.localhost, IP Address:127.0.0.1');
    expect(cert.checkHost('data-service-edge-router-lab.apps.lab.localhost')).toBeDefined();
    expect(cert.checkHost('data-service.router-lab.svc')).toBeUndefined();
    expect(cert.publicKey.asymmetricKeyType).toBe('rsa');
  });

  test('the .pem bundle holds the leaf and its key, readable by its owner only', () => {
    const ca = createCA(dir, 'svc-ca');
    const leaf = createServerCert(dir, 'svc', {
      ca,
      dnsNames: ['data-service.router-lab.svc'],
      keyType: 'ec',
    });
    const pem = fs.readFileSync(leaf.pem, 'utf8');
    expect(pem).toContain('BEGIN CERTIFICATE');
    expect(pem).toContain('PRIVATE KEY');
    expect(fs.statSync(leaf.key).mode & 0o077).toBe(0);
    expect(new X509Certificate(fs.readFileSync(leaf.cert)).publicKey.asymmetricKeyType).toBe('ec');
  });

  test('keys made side by side sign the certificates given them, of the type asked, owner-only', async () => {
    const keys = await generateKeys(dir, [{ name: 'made-ca' }, { name: 'made-leaf', keyType: 'ec' }]);
    const ca = createCA(dir, 'made-ca', { key: keys['made-ca'] });
    const leaf = createServerCert(dir, 'made-leaf', { ca, dnsNames: ['made.test'], key: keys['made-leaf'] });
    const caCert = new X509Certificate(fs.readFileSync(ca.cert));
    const cert = new X509Certificate(fs.readFileSync(leaf.cert));
    expect(caCert.checkPrivateKey(createPrivateKey(fs.readFileSync(keys['made-ca'])))).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(fs.readFileSync(keys['made-leaf'])))).toBe(true);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect([caCert.publicKey.asymmetricKeyDetails.modulusLength, cert.publicKey.asymmetricKeyType]).toEqual([
      2048,
      'ec',
    ]);
    expect(fs.statSync(keys['made-leaf']).mode & 0o077).toBe(0);
  });

  test('a certificate without a name is refused with a clear error', () => {
    const ca = createCA(dir, 'ca-for-bad');
    expect(() => createServerCert(dir, 'nameless', { ca })).toThrow(/nameless needs at least one name/);
  });
});
