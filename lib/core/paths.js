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

module.exports = {
  ROOT,
  OVERLAYS,
  TOOLS_DIR: path.join(ROOT, '.tools'),
  TOOLS_BIN: path.join(ROOT, '.tools', 'bin'),
  RESULTS_DIR: path.join(ROOT, 'results'),
  runId,
  /** The lab's state directory: `.lab/` unless LAB_DIR says otherwise. */
  labDir: (env = process.env) => path.resolve(env.LAB_DIR || path.join(ROOT, '.lab')),
};
