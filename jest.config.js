'use strict';
// Two tiers. unit: `*.unit.test.js`, pure logic, no process or socket (the guard refuses them),
// seconds. integration: the rest, against real Redis, HAProxy, k6 and TLS, three files at a time.
const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/data-service', '<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/', '/.lab/', '/.tools/'],
  // No transform: the code is CommonJS that Node runs as it is. Babel's, Jest's default, cost 15 s
  // of CPU for the unit tier alone on a fresh clone (an empty cache) and 3 s with a warm one.
  transform: {},
};

module.exports = {
  // Integration tests start real processes on a small machine: generous timeouts. Three files at
  // a time keep 2 cores 96 % busy, faster than two (87 %; times in README's table), as much of a
  // file's time is waiting (labs starting, fixed-length samples). A shared lab is one file's at a
  // time.
  testTimeout: 60000,
  maxWorkers: 3,
  verbose: true,
  // The run's shared labs (test/lab/helpers.js sharedLab): a root made once, every lab down at the end.
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  // By path, a shared lab's users before the file that takes it down (test/support/sequencer.js).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // The slowest files and the total after every run: a file that grew slower shows the day it did.
  reporters: ['default', '<rootDir>/test/support/slowest-files.js'],
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['**/test/**/*.unit.test.js'],
      setupFilesAfterEnv: ['<rootDir>/test/support/no-processes.js'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['**/test/**/*.test.js'],
      testPathIgnorePatterns: [...shared.testPathIgnorePatterns, '\\.unit\\.test\\.js$'],
    },
  ],
};
