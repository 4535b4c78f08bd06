'use strict';
// The floor of a full TLS handshake here: one signature with the router's key plus its key
// exchange in the negotiated group (both detected, never assumed), timed by `openssl speed`. A
// close cell's router cost per handshake, as a multiple of it, says how near the physical limit.
const fs = require('node:fs');
const tls = require('node:tls');
const { X509Certificate } = require('node:crypto');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { SSL_LIBRARY_LINES } = require('../setup/haproxy-build');

const run = promisify(execFile);

/** `openssl speed` algorithm names: the server's signature per key, its derive per group. */
const SIGNATURES = {
  rsa2048: 'rsa2048',
  rsa3072: 'rsa3072',
  rsa4096: 'rsa4096',
  'ecdsa-p256': 'ecdsap256',
  'ecdsa-p384': 'ecdsap384',
};
const GROUPS = {
  X25519: 'ecdhx25519',
  X448: 'ecdhx448',
  'P-256': 'ecdhp256',
  'P-384': 'ecdhp384',
  'P-521': 'ecdhp521',
};
/** Node reports curves by their OpenSSL names; the handshake's groups by their TLS names. */
const CURVE_NAMES = { prime256v1: 'p256', secp384r1: 'p384', secp521r1: 'p521' };
const GROUP_NAMES = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

/** 'rsa2048', 'ecdsa-p256', … from a PEM certificate (the first one of a chain). */
function certificateKey(pem) {
  const key = new X509Certificate(pem).publicKey;
  const details = key.asymmetricKeyDetails || {};
  if (key.asymmetricKeyType === 'rsa') return `rsa${details.modulusLength}`;
  if (key.asymmetricKeyType === 'ec') return `ecdsa-${CURVE_NAMES[details.namedCurve] || details.namedCurve}`;
  return key.asymmetricKeyType;
}

/**
 * Connects once with a full handshake and reports what was negotiated: { protocol, group, key }.
 * `group` is the key-exchange group (X25519, P-256, …); `key` the server certificate's key.
 */
function negotiate({ host = '127.0.0.1', port, servername, ca, alpn, timeoutMs = 5000 }) {
  return new Promise((resolve, reject) => {
    const options = { host, port, servername, ca, rejectUnauthorized: Boolean(ca), ALPNProtocols: alpn };
    const socket = tls.connect(options);
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`no TLS handshake with ${host}:${port} in ${timeoutMs} ms`)),
    );
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      const ephemeral = socket.getEphemeralKeyInfo() || {};
      const cert = socket.getPeerX509Certificate();
      resolve({
        protocol: socket.getProtocol(),
        group: GROUP_NAMES[ephemeral.name] || ephemeral.name || null,
        key: cert ? certificateKey(cert.toString()) : null,
        alpn: socket.alpnProtocol || null,
      });
      socket.end();
    });
  });
}

/**
 * Operations per second from `openssl speed -mr` output: the first `+F` line holds
 * <index>:<bits>:<first op/s>:… (sign/s for signatures, derive op/s for key exchange).
 */
function parseSpeed(output) {
  const line = output.split('\n').find((l) => /^\+F\d+:/.test(l));
  if (!line) throw new Error(`openssl speed printed no result line:\n${output.trim().slice(-500)}`);
  const perSecond = Number(line.split(':')[3]);
  if (!(perSecond > 0)) throw new Error(`openssl speed: no rate in '${line}'`);
  return perSecond;
}

/** µs of CPU for one operation of an `openssl speed` algorithm, timed for `seconds`. */
async function timeOperation(openssl, algorithm, { seconds = 1, signal } = {}) {
  const { stdout } = await run(openssl, ['speed', '-mr', '-seconds', String(seconds), algorithm], {
    signal,
    timeout: (seconds * 4 + 10) * 1000,
  });
  return 1e6 / parseSpeed(stdout);
}

/**
 * The floor for a key and a group: { key, group, signUs, keyExchangeUs, floorUs }. Throws naming
 * a key or group this module cannot time.
 */
async function handshakeFloor({ openssl, key, group, seconds, signal }) {
  const sign = SIGNATURES[key];
  const derive = GROUPS[group];
  if (!sign)
    throw new Error(
      `no openssl speed algorithm for the key '${key}' (known: ${Object.keys(SIGNATURES).join(', ')})`,
    );
  if (!derive)
    throw new Error(
      `no openssl speed algorithm for the group '${group}' (known: ${Object.keys(GROUPS).join(', ')})`,
    );
  const signUs = await timeOperation(openssl, sign, { seconds, signal });
  const keyExchangeUs = await timeOperation(openssl, derive, { seconds, signal });
  const round = (v) => Number(v.toFixed(1));
  return {
    key,
    group,
    signUs: round(signUs),
    keyExchangeUs: round(keyExchangeUs),
    floorUs: round(signUs + keyExchangeUs),
  };
}

/** 'OpenSSL 3.0.19' from a tool's version output, or null. */
async function opensslOf(file, args, pattern) {
  try {
    const { stdout, stderr } = await run(file, args, { timeout: 15000 });
    const match = pattern.exec(`${stdout}${stderr}`);
    // Without the build date some versions print after the name and version.
    return match ? match[1].trim().split(/\s+/).slice(0, 2).join(' ') : null;
  } catch {
    return null;
  }
}

/** Whether a run plans a cell whose full handshakes the floor is for: a close TLS cell. */
function needsFloor(cells) {
  return cells.some((c) => c.connection === 'close' && c.termination !== 'http');
}

/**
 * One full handshake with a route of the target, as its clients make it: { protocol, group, key }.
 * In the lab, to 127.0.0.1 with the route host as SNI. Passthrough is not verified (the service's
 * certificate cannot name the route host).
 */
function negotiateRoute(target, termination) {
  const route = target.routes[termination];
  const url = new URL(route.url);
  const verify = !target.insecure && target.caFile && termination !== 'passthrough';
  return negotiate({
    host: target.mode === 'lab' ? '127.0.0.1' : target.routerAddress || url.hostname,
    port: Number(url.port || 443),
    servername: route.host,
    ca: verify ? fs.readFileSync(target.caFile) : undefined,
  });
}

/**
 * The handshake floor of a matrix run, through its edge route: the router's key and group from a
 * real handshake (`seen`, from negotiateRoute, or made here), timed with this machine's openssl;
 * the router's own TLS library from `haproxy -vv` in the lab, or as a router that is not HAProxy
 * names it (`routerTls`; on a cluster it is not known from here). Resolves the results'
 * handshakeFloor block.
 */
async function measureHandshakeFloor({ target, openssl, haproxy, routerTls = null, signal, seen: known }) {
  const seen = known || (await negotiateRoute(target, 'edge'));
  const floor = await handshakeFloor({ openssl, key: seen.key, group: seen.group, signal });
  return {
    ...floor,
    protocol: seen.protocol,
    openssl: await opensslOf(openssl, ['version'], /^(OpenSSL \S+)/m),
    routerOpenssl:
      routerTls ??
      (target.mode === 'lab' && haproxy
        ? await opensslOf(haproxy, ['-vv'], SSL_LIBRARY_LINES.running)
        : null),
  };
}

module.exports = {
  SIGNATURES,
  GROUPS,
  certificateKey,
  negotiate,
  negotiateRoute,
  parseSpeed,
  timeOperation,
  handshakeFloor,
  needsFloor,
  measureHandshakeFloor,
};
