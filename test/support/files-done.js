'use strict';
// A Jest reporter: each test file marked done in the run's shared-lab root as Jest reports it
// (passed, failed, or every test filtered out), so that a file taking a shared lab down at its end
// waits for the files that use it (lab-pool's usersDone). Registered in jest.config.js.
const path = require('node:path');
const { markDone } = require('./lab-pool');

class FilesDone {
  onTestFileResult(test) {
    markDone(path.relative(test.context.config.rootDir, test.path));
  }
}

module.exports = FilesDone;
