'use strict';
// Sources setup builds from a pinned GitHub commit: downloaded, or read from the directory
// ROUTER_LAB_MIRROR names where GitHub cannot be reached; either way the commit is checked.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');
const { TOOLS_DIR } = require('../core/paths');

const MIRROR_ENV = 'ROUTER_LAB_MIRROR';

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

/** The file name of `source` in a mirror. */
const fileOf = (source) => source.file || `${source.name}-${source.commit.slice(0, 12)}.tar.gz`;

/** Whether the mirror ROUTER_LAB_MIRROR names holds `source`'s file. */
function inMirror(source, env = process.env) {
  return Boolean(env[MIRROR_ENV]) && fs.existsSync(path.join(path.resolve(env[MIRROR_ENV]), fileOf(source)));
}

/**
 * The tarball of `source` ({ name, repo: 'owner/name' | null, commit, file?, sha256? }): in the
 * mirror when ROUTER_LAB_MIRROR is set, as `file` (default `<name>-<commit:12>.tar.gz`) with its
 * SHA-256 checked when the pin has one, else from GitHub where `repo` names one (its archives are
 * not byte-stable: the commit check in unpackSource serves both).
 */
async function fetchSource(source, { env = process.env, log }) {
  const file = fileOf(source);
  const mirror = env[MIRROR_ENV];
  if (mirror) {
    const full = path.join(path.resolve(mirror), file);
    if (!fs.existsSync(full)) throw new Error(`${MIRROR_ENV}=${mirror} has no ${file}`);
    log(`  source: ${full}`);
    const tarball = fs.readFileSync(full);
    const sha256 = crypto.createHash('sha256').update(tarball).digest('hex');
    if (source.sha256 && sha256 !== source.sha256) {
      throw new Error(`${full} has SHA-256 ${sha256}, not the pinned ${source.sha256}`);
    }
    return tarball;
  }
  if (!source.repo) {
    throw new Error(
      `${file} is read from a mirror only (GitHub does not carry it): set ${MIRROR_ENV} to a directory holding it`,
    );
  }
  const url = `https://github.com/${source.repo}/archive/${source.commit}.tar.gz`;
  log(`  source: ${url}`);
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(120000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  } catch (err) {
    throw new Error(
      `cannot download ${source.name}'s source (${err.message}): set ${MIRROR_ENV} to a directory holding ${file}`,
      { cause: err },
    );
  }
}

/** Fetches, checks and unpacks `source` into .tools/src; resolves its directory. */
async function unpackSource(source, { env, log }) {
  const tarball = await fetchSource(source, { env, log });
  const commit = tarCommitId(tarball);
  if (commit !== source.commit) {
    throw new Error(
      `${source.name}'s source is commit ${commit || 'unknown'}, not the pinned ${source.commit}`,
    );
  }
  const dir = path.join(TOOLS_DIR, 'src', `${source.name}-${source.commit.slice(0, 12)}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const tar = spawnSync('tar', ['-xz', '--strip-components=1', '-C', dir], { input: tarball });
  if (tar.status !== 0) throw new Error(`unpacking ${source.name}'s source failed: ${tar.stderr}`);
  return dir;
}

module.exports = { MIRROR_ENV, tarCommitId, inMirror, fetchSource, unpackSource };
