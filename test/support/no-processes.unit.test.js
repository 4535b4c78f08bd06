'use strict';
// The unit tier's guard itself: what it refuses, with a message that says where the test goes.
const childProcess = require('node:child_process');
const net = require('node:net');

test('a unit test cannot start a process', () => {
  expect(() => childProcess.spawn('true')).toThrow(/unit test may not start a process.*\.test\.js/);
  expect(() => childProcess.execFileSync('true')).toThrow(/child_process\.execFileSync/);
});

test('a unit test cannot listen on a socket', () => {
  expect(() => net.createServer().listen(0)).toThrow(/may not listen on a socket/);
});
