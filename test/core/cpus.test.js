'use strict';
// The core list of a real process, pinned by taskset (the pure parsing is in cpus.unit.test.js).
const { spawn } = require('node:child_process');
const { allowedCoreList } = require('../../lib/core/cpus');
const { findTool } = require('../../lib/core/tools');

(findTool('taskset') ? test : test.skip)('a process pinned with taskset reports just its core', async () => {
  const allowed = allowedCoreList();
  const core = allowed[allowed.length - 1];
  const child = spawn(findTool('taskset'), ['-c', String(core), 'sleep', '30'], { stdio: 'ignore' });
  try {
    // taskset sets the mask, then execs sleep: poll until the mask is in place.
    let seen;
    for (let i = 0; i < 50; i++) {
      seen = allowedCoreList(child.pid);
      if (seen.length === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen).toEqual([core]);
  } finally {
    child.kill('SIGKILL');
  }
});
