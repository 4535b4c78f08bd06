'use strict';
// Builds pinned Go tools into .tools/bin with the local Go toolchain (no downloads of binaries:
// only modules from the Go module proxy).
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const { findOnPath } = require('../core/tools');
const { TOOLS_BIN } = require('../core/paths');

function goInstall(modulePath, version, log) {
  const go = findOnPath('go');
  if (!go) {
    throw new Error(
      `building ${modulePath}@${version} needs Go (1.22 or newer) on PATH: install Go, then run 'npm run setup' again`,
    );
  }
  fs.mkdirSync(TOOLS_BIN, { recursive: true });
  log(`  $ GOBIN=.tools/bin go install ${modulePath}@${version}   (a few minutes the first time)`);
  const r = spawnSync(go, ['install', `${modulePath}@${version}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      GOBIN: TOOLS_BIN,
      GOTOOLCHAIN: process.env.GOTOOLCHAIN || 'local',
      CGO_ENABLED: '0',
    },
  });
  if (r.status !== 0) throw new Error(`go install ${modulePath}@${version} failed: see the output above`);
}

module.exports = { goInstall };
