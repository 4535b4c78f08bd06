'use strict';
// Go builds with the local toolchain (no downloaded binaries): one runner for every Go tool setup
// builds, and pinned tools installed from the Go module proxy into .tools/bin.
const { spawnSync, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { findOnPath } = require('../core/tools');
const { TOOLS_BIN } = require('../core/paths');
const { cachedBuild } = require('./tool-cache');

/**
 * Runs `go ARGS` in `cwd` with the local toolchain, its output on the console; `what` names the
 * build in errors, `shown` is the line logged. `env` adds to the process's own: the same settings as any earlier build keep
 * Go's build cache valid, which turns a rebuild into a link.
 */
function runGo(args, { what, cwd, env = {}, log, shown = `  $ go ${args.join(' ')}` }) {
  const go = findOnPath('go');
  if (!go)
    throw new Error(
      `building ${what} needs Go (1.22 or newer) on PATH: install Go, then run 'npm run setup' again`,
    );
  log(shown);
  const r = spawnSync(go, args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN || 'local', ...env },
  });
  if (r.status !== 0) throw new Error(`go ${args[0]} for ${what} failed: see the output above`);
}

let toolchain;
/** The Go toolchain a build's result depends on (`go env GOVERSION`, asked once), or null without Go. */
function goVersion() {
  if (toolchain !== undefined) return toolchain;
  const go = findOnPath('go');
  const env = { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN || 'local' };
  toolchain = go ? execFileSync(go, ['env', 'GOVERSION'], { encoding: 'utf8', env }).trim() : null;
  return toolchain;
}

/**
 * A Go build through the tool cache (./tool-cache.js cachedBuild): the toolchain joins `key`, since
 * another Go builds another binary. `recipe`: the builder's file.
 */
function cachedGoBuild({ what, key, recipe, outputs, log }, build) {
  return cachedBuild({ what, key: { ...key, go: goVersion() }, recipe, outputs, log }, build);
}

/** The command `go install` names after a module path: its last element, but not a /vN suffix. */
function installedName(modulePath) {
  const parts = modulePath.split('/');
  return /^v\d+$/.test(parts.at(-1)) ? parts.at(-2) : parts.at(-1);
}

/** `go install module@version` into .tools/bin, or the same build from the tool cache. */
function goInstall(modulePath, version, log) {
  const env = { GOBIN: TOOLS_BIN, CGO_ENABLED: '0' };
  const key = { module: modulePath, version, CGO_ENABLED: env.CGO_ENABLED };
  const outputs = [path.join(TOOLS_BIN, installedName(modulePath))];
  return cachedGoBuild({ what: `${modulePath}@${version}`, key, recipe: __filename, outputs, log }, () => {
    fs.mkdirSync(TOOLS_BIN, { recursive: true });
    runGo(['install', `${modulePath}@${version}`], {
      what: `${modulePath}@${version}`,
      shown: `  $ GOBIN=.tools/bin go install ${modulePath}@${version}   (a few minutes the first time)`,
      env,
      log,
    });
  });
}

/**
 * The module version recorded in a Go binary's build info (`go version -m`): what `go install
 * mod@vX` built reports no version of its own ("development") when the release sets it by ldflags. Without
 * the v: 0.7.0, or a pseudo-version 0.0.0-20260827124520-eed52ebb66ad.
 */
function goModuleVersion(file) {
  const go = findOnPath('go');
  if (!go) return null;
  try {
    const out = execFileSync(go, ['version', '-m', file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return (out.match(/^\s+mod\s+\S+\s+v(\S+)/m) || [])[1] || null;
  } catch {
    return null;
  }
}

module.exports = { goInstall, runGo, cachedGoBuild, goModuleVersion, installedName };
