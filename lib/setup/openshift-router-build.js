'use strict';
// The real OpenShift router (openshift-router), built from its pinned commits with their vendor/
// into .tools/openshift-router/<release>/, from GitHub or the mirror (./mirror-source.js).
const fs = require('node:fs');
const path = require('node:path');
const { runGo, cachedGoBuild } = require('./go-install');
const { TOOLS_DIR } = require('../core/paths');
const { unpackSource } = require('./mirror-source');

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

const shortCommit = (pin) => pin.commit.slice(0, 12);
// One folder per release: the binary picks its command by the name it runs as, openshift-router.
const routerBin = (release) => path.join(TOOLS_DIR, 'openshift-router', release, 'openshift-router');
const stampFile = (release) => path.join(path.dirname(routerBin(release)), 'commit');
// The image's /var/lib/haproxy: the template, the reload script and the error pages.
const imageFiles = (release) => path.join(path.dirname(routerBin(release)), 'haproxy');

/** Builds openshift-router for `release` ('5.0', '4.22') from its vendored sources, offline. */
async function buildOpenshiftRouter(release, log, { env = process.env } = {}) {
  const pin = ROUTER_PINS[release];
  const dir = await unpackSource(
    { name: 'openshift-router', repo: 'openshift/router', commit: pin.commit },
    { env, log },
  );
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
    // The release's folder (binary, image files, commit) is the build's whole result.
    install: (log) =>
      cachedGoBuild(
        {
          what: `openshift-router ${pin.branch}`,
          key: { commit: pin.commit },
          recipe: __filename,
          outputs: [path.dirname(routerBin(release))],
          log,
        },
        () => buildOpenshiftRouter(release, log),
      ),
  };
}

module.exports = { ROUTER_PINS, openshiftRouterTool, routerBin, imageFiles };
