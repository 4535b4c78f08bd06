'use strict';
// Where the project keeps things. One place, so scripts and tests agree.
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

/** A run's id and the name of its results directory: its start, in UTC ('20261125-124208Z'). */
function runId(date = new Date()) {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .replace('T', '-');
}

/**
 * The overlays a user applies (overlays/<name>): cluster:deploy's --overlay and the real-router
 * lab's LAB_OVERLAY. test/core/paths.unit.test.js holds it to the directory.
 */
const OVERLAYS = ['http', 'edge', 'passthrough', 'reencrypt', 'all', 'sandbox'];

/**
 * Where a run writes unless told (--out): `results/`, or ROUTER_LAB_RESULTS (the guide's test
 * runs the pages' commands with its own, so `npm test` leaves nothing in results/).
 */
const resultsDir = (env = process.env) => path.resolve(env.ROUTER_LAB_RESULTS || path.join(ROOT, 'results'));

module.exports = {
  ROOT,
  OVERLAYS,
  TOOLS_DIR: path.join(ROOT, '.tools'),
  TOOLS_BIN: path.join(ROOT, '.tools', 'bin'),
  runId,
  resultsDir,
  /** A run's folder: `out` (its --out) when given, else `name` in resultsDir(env). */
  runDir: (out, name, env = process.env) => path.resolve(out || path.join(resultsDir(env), name)),
  /** The lab's state directory: `.lab/` unless LAB_DIR says otherwise. */
  labDir: (env = process.env) => path.resolve(env.LAB_DIR || path.join(ROOT, '.lab')),
};
