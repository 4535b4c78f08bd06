'use strict';
// Certificates for the lab and the tests, made with openssl and never committed. RSA 2048 by
// default because that is what OpenShift's router default certificate and the service CA issue:
// the handshake cost the benchmark measures depends on the key type.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { promisify } = require('node:util');
const { execFileSync } = require('node:child_process');
const { requireTool } = require('./tools');

const generateKeyPair = promisify(crypto.generateKeyPair);
const KEY_PARAMETERS = { rsa: { modulusLength: 2048 }, ec: { namedCurve: 'prime256v1' } };

function openssl(args) {
  try {
    execFileSync(requireTool('openssl'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    throw new Error(`openssl ${args[0]} failed: ${String(err.stderr || err.message).trim()}`, { cause: err });
  }
}

/**
 * Private keys made side by side, each <dir>/<name>.key (PKCS#8, 0600) for `keys` ([{ name,
 * keyType }], RSA 2048 by default). An RSA key takes a third of a second: one at a time, they were
 * most of a lab's certificates; here they share the thread pool. Resolves their paths by name, for
 * createCA's and createServerCert's `key`.
 */
async function generateKeys(dir, keys) {
  fs.mkdirSync(dir, { recursive: true });
  const made = await Promise.all(
    keys.map(async ({ name, keyType = 'rsa' }) => {
      const { privateKey } = await generateKeyPair(keyType, {
        ...KEY_PARAMETERS[keyType],
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      });
      const file = path.join(dir, `${name}.key`);
      fs.writeFileSync(file, privateKey, { mode: 0o600 });
      return [name, file];
    }),
  );
  return Object.fromEntries(made);
}

/** openssl req's key arguments: an existing `key`, or a new one of `keyType` written to `keyOut`. */
const keyArgs = (keyType, key, keyOut) => {
  if (key) return ['-key', key];
  const params = keyType === 'ec' ? ['ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'] : ['rsa:2048'];
  return ['-newkey', ...params, '-nodes', '-keyout', keyOut];
};

/**
 * A self-signed CA: writes <name>.crt in dir, and <name>.key unless `key` (generateKeys) is given;
 * returns their paths.
 */
function createCA(dir, name, { commonName = name, days = 365, keyType = 'rsa', key: given } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  const key = given || path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.crt`);
  openssl([
    'req',
    '-x509',
    ...keyArgs(keyType, given, key),
    '-sha256',
    '-days',
    String(days),
    '-out',
    cert,
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  fs.chmodSync(key, 0o600);
  return { key, cert };
}

/**
 * A serving certificate signed by `ca` for the DNS names (and IPs) given: writes <name>.key (unless
 * `key`, from generateKeys, is given), <name>.crt (leaf only) and <name>.pem (leaf, then the CA with
 * `withCA`, then the key: the form HAProxy loads, and serves as the chain).
 */
function createServerCert(
  dir,
  name,
  {
    ca,
    dnsNames = [],
    ipAddresses = [],
    days = 365,
    keyType = 'rsa',
    withCA = false,
    extendedKeyUsage = 'serverAuth',
    key: given,
  },
) {
  if (!dnsNames.length && !ipAddresses.length) throw new Error(`certificate ${name} needs at least one name`);
  fs.mkdirSync(dir, { recursive: true });
  const key = given || path.join(dir, `${name}.key`);
  const cert = path.join(dir, `${name}.crt`);
  const pem = path.join(dir, `${name}.pem`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-cert-'));
  try {
    const csr = path.join(tmp, 'req.csr');
    const ext = path.join(tmp, 'ext.cnf');
    const san = [...dnsNames.map((d) => `DNS:${d}`), ...ipAddresses.map((ip) => `IP:${ip}`)].join(',');
    fs.writeFileSync(
      ext,
      [
        'basicConstraints=critical,CA:FALSE',
        'keyUsage=critical,digitalSignature,keyEncipherment',
        `extendedKeyUsage=${extendedKeyUsage}`,
        `subjectAltName=${san}`,
      ].join('\n'),
    );
    openssl([
      'req',
      '-new',
      ...keyArgs(keyType, given, key),
      '-out',
      csr,
      '-subj',
      `/CN=${dnsNames[0] || ipAddresses[0]}`,
    ]);
    openssl([
      'x509',
      '-req',
      '-sha256',
      '-days',
      String(days),
      '-in',
      csr,
      '-CA',
      ca.cert,
      '-CAkey',
      ca.key,
      '-set_serial',
      `0x${Date.now().toString(16)}${Math.floor(Math.random() * 0xffff).toString(16)}`,
      '-extfile',
      ext,
      '-out',
      cert,
    ]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  fs.chmodSync(key, 0o600);
  const chain = [cert, ...(withCA ? [ca.cert] : [])].map((f) => fs.readFileSync(f, 'utf8')).join('');
  fs.writeFileSync(pem, chain + fs.readFileSync(key, 'utf8'), { mode: 0o600 });
  return { key, cert, pem };
}

/** A client certificate signed by `ca` for `commonName` (the user a Kubernetes server sees). */
function createClientCert(dir, name, { ca, commonName }) {
  return createServerCert(dir, name, { ca, dnsNames: [commonName], extendedKeyUsage: 'clientAuth' });
}

module.exports = { generateKeys, createCA, createServerCert, createClientCert };
