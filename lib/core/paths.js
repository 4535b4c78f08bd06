'use strict';
// Where the project keeps things. One place, so scripts and tests agree.
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

module.exports = {
  ROOT,
  TOOLS_DIR: path.join(ROOT, '.tools'),
  TOOLS_BIN: path.join(ROOT, '.tools', 'bin'),
  RESULTS_DIR: path.join(ROOT, 'results'),
  /** The lab's state directory: `.lab/` unless LAB_DIR says otherwise. */
  labDir: (env = process.env) => path.resolve(env.LAB_DIR || path.join(ROOT, '.lab')),
};
