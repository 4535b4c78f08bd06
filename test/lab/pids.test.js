'use strict';
// Which recorded processes are still the lab's: pid + kernel start time decide, never the
// command line alone (taskset execs the program, and a command line reads empty during exec).
const { spawn } = require('node:child_process');
const { processState, startTime } = require('../../lib/lab/common/pids');

describe('processState', () => {
  let sleeper;
  beforeEach(() => {
    sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  });
  afterEach(() => sleeper.kill('SIGKILL'));

  test('the process we started is ours even when its command line no longer shows what we ran', () => {
    // What LAB_CPUS looks like: the record was made for `taskset … node server.js`.
    const record = { pid: sleeper.pid, startTime: startTime(sleeper.pid), match: 'server.js' };
    expect(record.startTime).toMatch(/^\d+$/);
    expect(processState(record)).toBe('running');
  });

  test('a pid reused by another program (other start time) is foreign, whatever its command line', () => {
    const record = { pid: sleeper.pid, startTime: '1', match: 'sleep' };
    expect(processState(record)).toBe('foreign');
  });

  test('without a start time (no /proc), the command line decides', () => {
    expect(processState({ pid: sleeper.pid, startTime: null, match: 'sleep' })).toBe('running');
    expect(processState({ pid: sleeper.pid, startTime: null, match: 'redis-server' })).toBe('foreign');
  });

  test('an exited process is gone', async () => {
    const record = { pid: sleeper.pid, startTime: startTime(sleeper.pid), match: 'sleep' };
    sleeper.kill('SIGKILL');
    await new Promise((resolve) => sleeper.once('exit', resolve));
    expect(processState(record)).toBe('gone');
  });
});
