'use strict';
// The HTTPS listener's certificate, reloaded without a restart when its files change (OpenShift's
// service CA rotates it by updating the secret). A half-updated pair (new cert, old key) fails
// validation and is simply retried on the next event.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const tls = require('node:tls');

const MIN_VERSION = 'TLSv1.2';

/**
 * Reads and checks the pair; returns null when its content is `unchangedDigest` (the cheap
 * common case of a poll), throws when the key does not match the certificate or either is not PEM.
 */
function readPair(certFile, keyFile, unchangedDigest) {
  const cert = fs.readFileSync(certFile);
  const key = fs.readFileSync(keyFile);
  const digest = crypto.createHash('sha256').update(cert).update(key).digest('hex');
  if (digest === unchangedDigest) return null;
  tls.createSecureContext({ cert, key, minVersion: MIN_VERSION });
  const x509 = new crypto.X509Certificate(cert);
  return {
    cert,
    key,
    digest,
    serialNumber: x509.serialNumber,
    fingerprint256: x509.fingerprint256,
    validTo: x509.validTo,
  };
}

/** Options for https.createServer from the current files (throws when they are unusable). */
function tlsServerOptions(certFile, keyFile) {
  const pair = readPair(certFile, keyFile);
  return { pair, options: { cert: pair.cert, key: pair.key, minVersion: MIN_VERSION } };
}

// Kubernetes swaps the mounted files atomically through the `..data` symlink, which replaces
// directory entries rather than writing the files: so the directories are watched (not the
// files) and, because fs.watch is not reliable everywhere (network and overlay filesystems), the
// content is also polled.
/**
 * Watches certFile/keyFile and calls server.setSecureContext with the new pair when it changes,
 * with `sessionOptions` (./ticket-keys.js) again. Returns { stop(), current() }.
 */
function watchCertificate(
  server,
  { certFile, keyFile, initial, logger, pollIntervalMs = 30000, sessionOptions = {} },
) {
  let current = initial;
  let timer;
  let stopped = false;

  const reload = (reason) => {
    if (stopped) return;
    let pair;
    try {
      pair = readPair(certFile, keyFile, current.digest);
    } catch (err) {
      logger.warn({ error: err.message, reason }, 'certificate files unusable; keeping the current one');
      return;
    }
    if (pair === null) return;
    // setSecureContext resets what it is not given: the shared session options go again.
    server.setSecureContext({ cert: pair.cert, key: pair.key, minVersion: MIN_VERSION, ...sessionOptions });
    logger.info(
      { reason, serialNumber: pair.serialNumber, fingerprint256: pair.fingerprint256, validTo: pair.validTo },
      'TLS certificate reloaded',
    );
    current = pair;
  };

  // Events come in bursts (rename, symlink swap, two files): settle before reading.
  const soon = (reason) => {
    clearTimeout(timer);
    timer = setTimeout(() => reload(reason), 100);
    timer.unref();
  };

  const watchers = [];
  for (const dir of new Set([path.dirname(certFile), path.dirname(keyFile)])) {
    try {
      const watcher = fs.watch(dir, { persistent: false }, () => soon('files changed'));
      watcher.on('error', (err) => logger.warn({ error: err.message, dir }, 'fs.watch failed; polling'));
      watchers.push(watcher);
    } catch (err) {
      logger.warn({ error: err.message, dir }, 'cannot watch the certificate directory; polling only');
    }
  }
  const poll = setInterval(() => reload('poll'), pollIntervalMs);
  poll.unref();

  return {
    current: () => current,
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(poll);
      for (const watcher of watchers) watcher.close();
    },
  };
}

module.exports = { tlsServerOptions, watchCertificate, MIN_VERSION };
