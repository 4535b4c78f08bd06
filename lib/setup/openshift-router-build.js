'use strict';
// The real OpenShift router (openshift-router), built from its pinned commits with their vendor/
// into .tools/openshift-router/<release>/. Its sources come from GitHub, or from a mirror
// directory (ROUTER_LAB_MIRROR) where GitHub cannot be reached; either way the commit is checked.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');
const { runGo } = require('./go-install');
const { TOOLS_DIR } = require('../core/paths');

// Each OpenShift release's router branch, the HAProxy branch its image installs, and the setup
// level that builds it: both for 'test', since a command on the real router (route-scale in a test)
// runs setupIfNeeded('openshift'), which must find every release built, not build one in a test.
const ROUTER_PINS = {
  '5.0': {
    branch: 'release-5.0',
    commit: '4b401a86dccc657a8a5254c2794a312241f40e87',
    haproxy: '3.2',
    neededFor: 'test',
  },
  4.22: {
    branch: 'release-4.22',
    commit: 'b2665a2999cec36350ccf2614b43941753027773',
    haproxy: '2.8',
    neededFor: 'test',
  },
};
const MIRROR_ENV = 'ROUTER_LAB_MIRROR';

const shortCommit = (pin) => pin.commit.slice(0, 12);
// One folder per release: the binary picks its command by the name it runs as, openshift-router.
const routerBin = (release) => path.join(TOOLS_DIR, 'openshift-router', release, 'openshift-router');
const stampFile = (release) => path.join(path.dirname(routerBin(release)), 'commit');
// The image's /var/lib/haproxy: the template, the reload script and the error pages.
const imageFiles = (release) => path.join(path.dirname(routerBin(release)), 'haproxy');

/**
 * The commit `git archive` wrote into a tarball's pax global header ('52 comment=<sha>'), or null.
 * GitHub's archives are made the same way, so one check serves both sources.
 */
function tarCommitId(gzipped) {
  // Only the first two blocks are needed: inflate a prefix, not the whole source tree.
  const prefix = gzipped.subarray(0, 65536);
  const tar = zlib.gunzipSync(prefix, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).subarray(0, 1024);
  if (String.fromCharCode(tar[156]) !== 'g') return null;
  const match = /\d+ comment=([0-9a-f]{40})\n/.exec(tar.subarray(512).toString('latin1'));
  return match ? match[1] : null;
}

/** The source tarball of `pin`: the mirror's file when ROUTER_LAB_MIRROR is set, else GitHub's. */
async function fetchSource(pin, { env = process.env, log }) {
  const mirror = env[MIRROR_ENV];
  if (mirror) {
    const file = path.join(path.resolve(mirror), `openshift-router-${shortCommit(pin)}.tar.gz`);
    if (!fs.existsSync(file)) throw new Error(`${MIRROR_ENV}=${mirror} has no ${path.basename(file)}`);
    log(`  source: ${file}`);
    return fs.readFileSync(file);
  }
  const url = `https://github.com/openshift/router/archive/${pin.commit}.tar.gz`;
  log(`  source: ${url}`);
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(120000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  } catch (err) {
    throw new Error(
      `cannot download the router's source (${err.message}): set ${MIRROR_ENV} to a directory ` +
        `holding openshift-router-${shortCommit(pin)}.tar.gz`,
      { cause: err },
    );
  }
}

/** Unpacks a checked source tarball into .tools/src and returns its top folder. */
function unpack(tarball, pin) {
  const commit = tarCommitId(tarball);
  if (commit !== pin.commit) {
    throw new Error(`the router's source is commit ${commit || 'unknown'}, not the pinned ${pin.commit}`);
  }
  const dir = path.join(TOOLS_DIR, 'src', `openshift-router-${shortCommit(pin)}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const tar = spawnSync('tar', ['-xz', '--strip-components=1', '-C', dir], { input: tarball });
  if (tar.status !== 0) throw new Error(`unpacking the router's source failed: ${tar.stderr}`);
  return dir;
}

/** Builds openshift-router for `release` ('5.0', '4.22') from its vendored sources, offline. */
async function buildOpenshiftRouter(release, log, { env = process.env } = {}) {
  const pin = ROUTER_PINS[release];
  const dir = unpack(await fetchSource(pin, { env, log }), pin);
  log(`  building openshift-router ${pin.branch} (${shortCommit(pin)}): about 2 minutes on 2 cores`);
  fs.mkdirSync(path.dirname(routerBin(release)), { recursive: true });
  runGo(['build', '-trimpath', '-ldflags=-s -w', '-o', routerBin(release), './cmd/openshift-router'], {
    what: `openshift-router ${pin.branch}`,
    cwd: dir,
    env: { GOFLAGS: '-mod=vendor', GOPROXY: 'off' },
    log,
  });
  fs.rmSync(imageFiles(release), { recursive: true, force: true });
  fs.cpSync(path.join(dir, 'images', 'router', 'haproxy'), imageFiles(release), { recursive: true });
  fs.writeFileSync(stampFile(release), `${pin.commit}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The registry's entry for one release's router: found when built from its pinned commit. */
function openshiftRouterTool(release) {
  const pin = ROUTER_PINS[release];
  return {
    name: `openshift-router ${release} (${pin.branch})`,
    neededFor: pin.neededFor,
    locate() {
      const built = [routerBin(release), stampFile(release), imageFiles(release)].every(fs.existsSync);
      if (!built) return null;
      const commit = fs.readFileSync(stampFile(release), 'utf8').trim();
      return {
        path: routerBin(release),
        version: commit.slice(0, 12),
        tooOld: commit !== pin.commit,
        min: shortCommit(pin),
      };
    },
    install: (log) => buildOpenshiftRouter(release, log),
  };
}

module.exports = { ROUTER_PINS, tarCommitId, openshiftRouterTool, routerBin, imageFiles };
