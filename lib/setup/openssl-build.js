'use strict';
// The router HAProxy (3.2) on OpenSSL 3.5 (Debian 13's) beside the pinned one on the system's
// OpenSSL: the same HAProxy source, so a comparison measures the TLS library alone. Built on request
// (npm run setup -- --with openssl-3.5) into .tools; LAB_HAPROXY picks it.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { TOOLS_DIR, TOOLS_BIN } = require('../core/paths');
const { buildHaproxy, SSL_LIBRARY_LINES } = require('./haproxy-build');
const {
  upstreamVersion,
  fetchUpstreamTarball,
  unpack,
  installBuildPackages,
  run,
  jobs,
} = require('./debian-source');

/** Debian 13's OpenSSL 3.5 source package, built as shared libraries without tests or docs. */
const OPENSSL_PIN = {
  release: 'trixie',
  suites: ['trixie', 'trixie-updates', 'trixie-security'],
  source: 'openssl',
  debianVersion: '3.5.7-1~deb13u2',
  configureFlags: ['shared', 'no-tests', 'no-docs'],
  buildPackages: ['gcc', 'make', 'perl', 'libc6-dev', 'ccache'],
};

const OPENSSL_VERSION = upstreamVersion(OPENSSL_PIN.debianVersion);
const OPENSSL_DIR = path.join(TOOLS_DIR, `openssl-${OPENSSL_VERSION}`);
const OPENSSL_HAPROXY_BIN = path.join(TOOLS_BIN, 'haproxy-openssl-3.5');

/** The OpenSSL an HAProxy binary runs on ('OpenSSL 3.5.7 …'), or null. */
function haproxyOpenssl(file) {
  const r = spawnSync(file, ['-vv'], { encoding: 'utf8', timeout: 15000 });
  return ((r.stdout || '').match(SSL_LIBRARY_LINES.running) || [])[1]?.trim() ?? null;
}

/** Builds OpenSSL into OPENSSL_DIR (about three minutes on 2 cores). */
function buildOpenssl(log) {
  installBuildPackages(OPENSSL_PIN, log);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-openssl-'));
  try {
    const { tarball } = fetchUpstreamTarball(OPENSSL_PIN, tmp, log);
    const build = unpack(tarball, path.join(tmp, 'build'), log);
    const configure = [`--prefix=${OPENSSL_DIR}`, '--libdir=lib', ...OPENSSL_PIN.configureFlags];
    run('./Configure', configure, { cwd: build, log, what: `configuring OpenSSL ${OPENSSL_VERSION} failed` });
    log(`  building OpenSSL ${OPENSSL_VERSION} (about three minutes on 2 cores)`);
    run('make', [`-j${jobs()}`], { cwd: build, log, what: `building OpenSSL ${OPENSSL_VERSION} failed` });
    fs.rmSync(OPENSSL_DIR, { recursive: true, force: true });
    run('make', ['install_sw'], { cwd: build, log, what: `installing OpenSSL into ${OPENSSL_DIR} failed` });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** OpenSSL if missing, then the pinned HAProxy linked against it (its path built in: rpath). */
function buildHaproxyOnOpenssl35(log) {
  if (!fs.existsSync(path.join(OPENSSL_DIR, 'lib', 'libssl.so'))) buildOpenssl(log);
  const lib = path.join(OPENSSL_DIR, 'lib');
  buildHaproxy(log, {
    extraFlags: [
      `SSL_INC=${path.join(OPENSSL_DIR, 'include')}`,
      `SSL_LIB=${lib}`,
      `ADDLIB=-Wl,-rpath,${lib}`,
    ],
    target: OPENSSL_HAPROXY_BIN,
  });
  const runsOn = haproxyOpenssl(OPENSSL_HAPROXY_BIN);
  if (!runsOn?.startsWith(`OpenSSL ${OPENSSL_VERSION}`)) {
    throw new Error(`${OPENSSL_HAPROXY_BIN} runs on ${runsOn ?? 'no OpenSSL'}, not ${OPENSSL_VERSION}`);
  }
}

module.exports = {
  OPENSSL_PIN,
  OPENSSL_VERSION,
  OPENSSL_HAPROXY_BIN,
  haproxyOpenssl,
  buildHaproxyOnOpenssl35,
};
