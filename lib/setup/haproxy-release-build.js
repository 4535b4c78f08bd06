'use strict';
// HAProxy releases no Debian index here offers, built from upstream's release commits (a `git
// archive`, from GitHub or the mirror: ./mirror-source.js) on request: 2.8, as OpenShift 4.16–4.22
// run it, and 3.4, as 5.2 will. A git archive carries its version (VERSION, VERDATE), so no git.
const fs = require('node:fs');
const path = require('node:path');
const { TOOLS_BIN } = require('../core/paths');
const { unpackSource, inMirror } = require('./mirror-source');
const { installBuildPackages, run, jobs, upstreamVersion } = require('./debian-source');
const { HAPROXY_PIN, HAPROXY_PINS, haproxyVersion } = require('./haproxy-build');

/**
 * Each release: its commit, the mirror's file and SHA-256, and the version `haproxy -v` must say.
 * 2.8's history is in upstream's haproxy-2.8.git, which GitHub does not carry: the mirror only.
 */
const RELEASE_PINS = {
  2.8: {
    name: 'haproxy-2.8',
    branch: '2.8',
    repo: null,
    commit: 'f28885f42e7e36215e2005cf57fae6ac118e18b9',
    file: 'haproxy-2.8.10.tar.gz',
    sha256: 'a40552815b1a44de7c1eced349178392527f583ade5368d54b7c4ba7a3b2d7e2',
    version: '2.8.10',
    bin: path.join(TOOLS_BIN, 'haproxy-2.8'),
  },
  3.4: {
    name: 'haproxy-3.4',
    branch: '3.4',
    repo: 'haproxy/haproxy',
    commit: '64a335366dc1bb5431e28a75e3a22e4226ac9b8f',
    file: 'haproxy-3.4.0.tar.gz',
    sha256: '9298f565c2a9ba8a4e7f89c54be2c5d3fd960b5b304eb5515e15d29d2c15d4f7',
    version: '3.4.0',
    bin: path.join(TOOLS_BIN, 'haproxy-3.4'),
  },
};

/** Builds `pin` with the router build's flags into its bin, checking the version it reports. */
async function buildRelease(pin, log, { env = process.env } = {}) {
  installBuildPackages(HAPROXY_PIN, log);
  const dir = await unpackSource(pin, { env, log });
  try {
    log(`  building HAProxy ${pin.version}: about 2 minutes on 2 cores`);
    run('make', [`-j${jobs()}`, ...HAPROXY_PIN.makeFlags], {
      cwd: dir,
      log,
      what: `building HAProxy ${pin.version}`,
    });
    const built = path.join(dir, 'haproxy');
    const reported = haproxyVersion(built);
    if (reported !== pin.version)
      throw new Error(`the build reports version ${reported}, not ${pin.version}`);
    fs.mkdirSync(TOOLS_BIN, { recursive: true });
    fs.copyFileSync(built, `${pin.bin}.new`);
    fs.chmodSync(`${pin.bin}.new`, 0o755);
    fs.renameSync(`${pin.bin}.new`, pin.bin);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The registry's entry for a release: on request (setup --with haproxy-2.8), and for the tests
 * where the mirror holds its source (no download is tried unasked).
 */
function releaseTool(pin) {
  return {
    name: `haproxy ${pin.version} (upstream release)`,
    extra: pin.name,
    neededFor: 'test',
    onlyWhere: () => inMirror(pin),
    locate() {
      const version = haproxyVersion(pin.bin);
      if (!version) return null;
      return { path: pin.bin, version, tooOld: version !== pin.version, min: pin.version };
    },
    install: (log) => buildRelease(pin, log),
  };
}

/**
 * Setup's build of HAProxy `branch` ('2.8', '3.0', '3.2', '3.4'): { branch, version, bin, setup }
 * (`setup`: the arguments that make it), or null when setup builds none of that branch.
 */
function branchBuild(branch) {
  const debian = HAPROXY_PINS[branch];
  if (debian) {
    const setup = debian === HAPROXY_PIN ? '--for lab' : `--with haproxy-${branch}`;
    return { branch, version: upstreamVersion(debian.debianVersion), bin: debian.bin, setup };
  }
  const pin = RELEASE_PINS[branch];
  return pin ? { branch, version: pin.version, bin: pin.bin, setup: `--with ${pin.name}` } : null;
}

module.exports = { RELEASE_PINS, buildRelease, releaseTool, branchBuild };
