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

module.exports = {
  ROOT,
  TOOLS_DIR: path.join(ROOT, '.tools'),
  TOOLS_BIN: path.join(ROOT, '.tools', 'bin'),
  RESULTS_DIR: path.join(ROOT, 'results'),
  runId,
  /** The lab's state directory: `.lab/` unless LAB_DIR says otherwise. */
  labDir: (env = process.env) => path.resolve(env.LAB_DIR || path.join(ROOT, '.lab')),
};
