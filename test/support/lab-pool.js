'use strict';
// The run's shared labs: the first file asking for a set of knobs starts the lab, later files asking
// for the same knobs use it (lab:up returns the running lab when its knobs match), one file at a
// time across Jest's workers, and globalTeardown takes it down: a lab start once per run, not per file.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const lockfile = require('proper-lockfile');

/** Where the run's shared labs live: set by globalSetup, read by the test files (workers inherit it). */
const ROOT_ENV = 'ROUTER_LAB_SHARED_LABS';

/**
 * The labs the guide's runner shares with test files, by knobs: the default lab
 * (test/bin/compare.test.js's), the lab with pods (test/node/pods-lab.test.js's) and release-4.22's
 * real router on its own HAProxy (test/lab/haproxy-releases.test.js's).
 */
const SHARED_KNOBS = {
  default: {},
  pods: { LAB_ROUTER: 'openshift', LAB_PODS: 'yes', LAB_REDIS: 'cluster' },
  release422: { LAB_ROUTER: 'openshift', LAB_OPENSHIFT_RELEASE: '4.22' },
};

/** A folder name for a set of knobs: the same knobs, in any order, give the same name. */
function poolKey(knobs, prefix = 'lab') {
  const canonical = JSON.stringify(Object.entries(knobs).sort(([a], [b]) => a.localeCompare(b)));
  const hash = crypto.createHash('sha256').update(canonical).digest('hex').slice(0, 12);
  return `${prefix}-${hash}`;
}

/** The run's root, or null when Jest ran without globalSetup (then each file keeps its own lab). */
const poolRoot = (env = process.env) => env[ROOT_ENV] || null;

/** The LAB_DIR of the shared lab with `knobs` (created), or null without a pool. */
function pooledLabDir(knobs, env = process.env) {
  const root = poolRoot(env);
  if (!root) return null;
  const dir = path.join(root, poolKey(knobs));
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The folder of a run done once per Jest run (`what`: what makes it that run, e.g. its command),
 * and whether it is new (null without a pool: the caller runs it in a folder of its own).
 */
function sharedRunDir(what, env = process.env) {
  const root = poolRoot(env);
  if (!root) return null;
  const dir = path.join(root, poolKey(what, 'run'));
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** How long a file may wait for another Jest worker's file to be done with a shared lab or run. */
const WAIT_MS = 15 * 60 * 1000;

/**
 * Exclusive use of a shared lab's (or run's) folder across Jest workers: one file at a time reads,
 * changes or takes down a shared lab, so a measurement never has another file's load or reload in
 * it. Resolves release(). A holder that died is taken over once its lock is 30 s stale.
 */
function useExclusively(dir, { waitMs = WAIT_MS } = {}) {
  const seconds = Math.ceil(waitMs / 1000);
  return lockfile.lock(dir, {
    stale: 30000,
    retries: { retries: seconds, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
  });
}

/** Records the env of a lab a test starts, in the run's root: teardown (or Ctrl-C) takes it down. */
function rememberEnv(labEnv, env = process.env) {
  const root = poolRoot(env);
  if (!root) return;
  const dir = path.join(root, 'labs');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${poolKey({ LAB_DIR: labEnv.LAB_DIR })}.json`), JSON.stringify(labEnv));
}

async function globalSetup() {
  process.env[ROOT_ENV] = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-shared-'));
  // Ctrl-C reaches Jest's workers, which end at once, but not the labs (sessions of their own):
  // the run takes down every lab it recorded, then ends as interrupted.
  process.once('SIGINT', () => {
    console.error('\nInterrupted: taking down the labs the tests started');
    globalTeardown()
      .catch((err) => console.error(err.message))
      .finally(() => process.exit(130));
  });
}

/**
 * Every lab the run recorded down, then the root removed; a lab that fails to stop is named. Once
 * per process: Ctrl-C's handler and Jest's own teardown may both ask.
 */
function globalTeardown() {
  const once = Symbol.for('router-lab.lab-pool.teardown');
  globalThis[once] ??= takeDownAll();
  return globalThis[once];
}

async function takeDownAll() {
  const root = poolRoot();
  if (!root) return;
  const lab = require('../../lib/lab/index');
  const dir = path.join(root, 'labs');
  const failed = [];
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const labEnv = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    try {
      await lab.down({ env: labEnv, log: () => {} });
    } catch (err) {
      failed.push(`${labEnv.LAB_DIR}: ${err.message}`);
    }
  }
  fs.rmSync(root, { recursive: true, force: true });
  if (failed.length) throw new Error(`labs not taken down:\n${failed.join('\n')}`);
}

module.exports = {
  SHARED_KNOBS,
  ROOT_ENV,
  poolKey,
  poolRoot,
  pooledLabDir,
  sharedRunDir,
  rememberEnv,
  useExclusively,
  WAIT_MS,
  globalSetup,
  globalTeardown,
};
