'use strict';
// The router HAProxy from Debian's source package: OpenShift's current branch (3.2) into
// .tools/bin/haproxy, on request 3.0 beside it. Without apt, root or a compiler the build is
// skipped and the lab runs the system's HAProxy (./install.js says so).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { TOOLS_BIN } = require('../core/paths');
const {
  upstreamVersion,
  checkAptSource,
  fetchUpstreamTarball,
  unpack,
  installBuildPackages,
  run,
  jobs,
} = require('./debian-source');

// The make flags the OpenShift router's HAProxy needs: OpenSSL, PCRE2 for its map_reg maps, the
// Prometheus exporter.
const MAKE_FLAGS = ['TARGET=linux-glibc', 'USE_OPENSSL=1', 'USE_PCRE2=1', 'USE_PCRE2_JIT=1', 'USE_PROMEX=1'];
const BUILD_PACKAGES = ['gcc', 'make', 'libc6-dev', 'libssl-dev', 'libpcre2-dev', 'ccache'];

/**
 * The one place each build is pinned: a branch and a known Debian source version. 3.2 comes from
 * unstable, whose version moves: its orig tarball's SHA-256 (upstream's own) lets the pool serve
 * it after the index has moved on; past that, the newest 3.2.x offered is built and said.
 */
const HAPROXY_PINS = {
  3.2: {
    branch: '3.2',
    release: 'sid',
    suites: ['sid'],
    source: 'haproxy',
    debianVersion: '3.2.23-1',
    origSha256: '82d14ef33571e4edeb9197516c0d058a3775fb80541e46afe4377428e461fef0',
    makeFlags: MAKE_FLAGS,
    buildPackages: BUILD_PACKAGES,
    bin: path.join(TOOLS_BIN, 'haproxy'),
  },
  '3.0': {
    branch: '3.0',
    release: 'trixie',
    suites: ['trixie', 'trixie-updates', 'trixie-security'],
    source: 'haproxy',
    debianVersion: '3.0.11-1+deb13u5',
    makeFlags: MAKE_FLAGS,
    buildPackages: BUILD_PACKAGES,
    bin: path.join(TOOLS_BIN, 'haproxy-3.0'),
  },
};

/** The router HAProxy the lab runs by default: the branch of OpenShift 5.0's router. */
const HAPROXY_PIN = HAPROXY_PINS['3.2'];
const PINNED_BIN = HAPROXY_PIN.bin;

/** `haproxy -vv`'s TLS library lines: 3.2 says "SSL library" where 3.0 and older say "OpenSSL". */
const SSL_LIBRARY_LINES = {
  running: /Running on (?:OpenSSL|SSL library) version\s*:\s*(.+)/,
  builtWith: /Built with (?:OpenSSL|SSL library) version\s*:\s*(.+)/,
};

/** The upstream version `haproxy -v` prints, or null. */
function haproxyVersion(file) {
  const r = spawnSync(file, ['-v'], { encoding: 'utf8', timeout: 15000 });
  return ((r.stdout || '').match(/version (\d+\.\d+\.\d+)/) || [])[1] || null;
}

/**
 * Builds HAProxy from `pin` with `extraFlags` (another OpenSSL, say) and installs it as `target`,
 * checking the version it reports. Throws saying why it could not; returns the version built.
 */
function buildHaproxy(log, { pin = HAPROXY_PIN, extraFlags = [], target = pin.bin } = {}) {
  checkAptSource(pin);
  installBuildPackages(pin, log);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-haproxy-'));
  try {
    const { tarball, version } = fetchUpstreamTarball(pin, tmp, log);
    const build = unpack(tarball, path.join(tmp, 'build'), log);
    log(`  building HAProxy ${version} (about a minute on 2 cores)`);
    run('make', [`-j${jobs()}`, ...pin.makeFlags, ...extraFlags], {
      cwd: build,
      log,
      what: `building HAProxy ${version} failed`,
    });
    const built = path.join(build, 'haproxy');
    const reported = haproxyVersion(built);
    if (reported !== version) throw new Error(`the build reports version ${reported}, not ${version}`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(built, `${target}.new`);
    fs.chmodSync(`${target}.new`, 0o755);
    fs.renameSync(`${target}.new`, target);
    return version;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Where `pin`'s build stands: null when absent; tooOld when it is not of the pin's branch.
 * Another version of the branch (the pinned one was gone) is kept, and its version says so.
 */
function locatePinned(pin) {
  const version = haproxyVersion(pin.bin);
  if (!version) return null;
  const pinned = upstreamVersion(pin.debianVersion);
  const shown = version === pinned ? version : `${version} (the pinned ${pinned} was not offered)`;
  return { path: pin.bin, version: shown, tooOld: !version.startsWith(`${pin.branch}.`), min: pinned };
}

module.exports = {
  SSL_LIBRARY_LINES,
  HAPROXY_PINS,
  HAPROXY_PIN,
  PINNED_BIN,
  haproxyVersion,
  buildHaproxy,
  locatePinned,
};
