'use strict';
// Runs an image tool (buildah, mmdebstrap, gcc, npm, ctr) and fails with the step that failed and
// the last lines it printed: a build that breaks says where.
const { spawnSync } = require('node:child_process');

const TAIL_LINES = 25;

/** Runs `file args`; resolves its stdout. `what` names the step in the error. */
function runStep(file, args, { what, cwd, env, log = () => {}, shown = true }) {
  if (shown) log(`    $ ${[file, ...args].join(' ')}`);
  const r = spawnSync(file, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw new Error(`${what}: ${file} could not run (${r.error.message})`);
  if (r.status !== 0) {
    const output = `${r.stdout}\n${r.stderr}`.trim().split('\n').slice(-TAIL_LINES).join('\n');
    throw new Error(`${what} failed (${file} exited with ${r.status}):\n${output}`);
  }
  return r.stdout;
}

module.exports = { runStep };
