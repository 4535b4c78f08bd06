'use strict';
// haload, HAProxy's own load generator, built from HAProxy's development branch at a pinned
// commit (GitHub or the mirror: ./mirror-source.js) into .tools/bin/haload, with one patch of
// ours so that it sends SNI (./patches/haload-sni.patch says why).
const fs = require('node:fs');
const path = require('node:path');
const { TOOLS_BIN } = require('../core/paths');
const { toolVersion } = require('../core/tools');
const { unpackSource } = require('./mirror-source');
const { installBuildPackages, run, jobs } = require('./debian-source');

// The development branch on 2026-08-21 (3.5-dev5): haload arrived in July 2026.
const HALOAD = {
  name: 'haproxy',
  repo: 'haproxy/haproxy',
  commit: '50872daa6a857e82afc40b1c5161924aef4172d7',
  file: 'haproxy-3.5-dev-50872daa6.tar.gz',
  sha256: '3ff380ee33bb4cd2a828f92fdfda802176f3b4c27d12579c147c4832e1e2858c',
  version: '3.5-dev5-50872daa6',
};
const PATCHES = ['haload-sni.patch'].map((f) => path.join(__dirname, 'patches', f));
const BUILD = {
  source: 'haload',
  buildPackages: ['gcc', 'make', 'libc6-dev', 'libssl-dev', 'patch', 'ccache'],
};
const haloadBin = path.join(TOOLS_BIN, 'haload');

async function buildHaload(log, { env = process.env } = {}) {
  installBuildPackages(BUILD, log);
  const dir = await unpackSource(HALOAD, { env, log });
  try {
    for (const patch of PATCHES) {
      run('patch', ['-p1', '--forward', '-i', patch], { cwd: dir, log, what: `applying ${patch}` });
    }
    log(`  building haload ${HALOAD.version}: about 2 minutes on 2 cores`);
    run('make', [`-j${jobs()}`, 'TARGET=linux-glibc', 'USE_OPENSSL=1', 'haload'], {
      cwd: dir,
      log,
      what: `building haload ${HALOAD.version}`,
    });
    fs.mkdirSync(TOOLS_BIN, { recursive: true });
    fs.copyFileSync(path.join(dir, 'haload'), haloadBin);
    fs.chmodSync(haloadBin, 0o755);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The registry's entry: found when .tools/bin/haload reports the pinned commit. */
const haloadTool = {
  name: `haload ${HALOAD.version}`,
  neededFor: 'test',
  locate() {
    if (!fs.existsSync(haloadBin)) return null;
    const version = ((toolVersion(haloadBin, ['-v']) || '').match(/haload version (\S+)/) || [])[1];
    return {
      path: haloadBin,
      version: version || 'unknown version',
      tooOld: version !== HALOAD.version,
      min: HALOAD.version,
    };
  },
  install: (log) => buildHaload(log),
};

module.exports = { HALOAD, haloadTool, haloadBin };
