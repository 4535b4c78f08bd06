'use strict';
// Every test in the project. Integration tests start real redis-server, haproxy and k6 processes
// on free ports, so they get generous timeouts and run one file at a time on small machines.
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/data-service', '<rootDir>/test'],
  testMatch: ['**/test/**/*.test.js'],
  testPathIgnorePatterns: ['/node_modules/', '/.lab/', '/.tools/'],
  testTimeout: 60000,
  maxWorkers: 1,
  verbose: true,
};
