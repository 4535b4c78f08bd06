'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  startDaemon,
  startChild,
  stopProcess,
  isAlive,
  readPidFile,
  commandLine,
} = require('../../lib/core/processes');
const { freePort, isListening, waitForPort, waitForPortClosed } = require('../../lib/core/ports');

describe('processes and ports', () => {
  let dir;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-proc-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a daemon is detached, tracked by its pid file and stopped by SIGTERM', async () => {
    const pidFile = path.join(dir, 'pids', 'sleeper.pid');
    const pid = startDaemon({
      file: 'sleep',
      args: ['30'],
      logFile: path.join(dir, 'logs', 'sleeper.log'),
      pidFile,
    });
    expect(readPidFile(pidFile)).toBe(pid);
    expect(isAlive(pid)).toBe(true);
    expect(commandLine(pid)).toMatch(/sleep 30/);
    expect(await stopProcess(pid)).toBe('stopped');
    expect(isAlive(pid)).toBe(false);
    expect(await stopProcess(pid)).toBe('not-running');
  });

  test('a process that ignores SIGTERM is killed after the timeout', async () => {
    const child = startChild('sh', ['-c', 'trap "" TERM; while :; do sleep 0.1; done']);
    await new Promise((r) => setTimeout(r, 200));
    expect(await stopProcess(child.pid, { timeoutMs: 300 })).toBe('killed');
    expect((await child.exited).signal).toBe('SIGKILL');
  });

  test('a child keeps its output for diagnostics', async () => {
    const child = startChild('sh', ['-c', 'echo hello from the child; exit 3']);
    expect((await child.exited).code).toBe(3);
    expect(child.output()).toContain('hello from the child');
  });

  test('ports: a free port is free, a listener is seen, then seen gone', async () => {
    const port = await freePort();
    expect(await isListening(port)).toBe(false);
    const child = startChild(process.execPath, [
      '-e',
      `require('net').createServer().listen(${port}, '127.0.0.1')`,
    ]);
    await waitForPort(port, { what: 'test listener' });
    await child.stop();
    await waitForPortClosed(port);
    await expect(waitForPort(port, { timeoutMs: 200, what: 'nothing' })).rejects.toThrow(
      `nothing on 127.0.0.1:${port} did not come up within 200 ms`,
    );
  });
});

test('repin moves a running process to other cores', async () => {
  const { repin } = require('../../lib/core/processes');
  const { allowedCoreList } = require('../../lib/core/cpus');
  const sleeper = startChild('sleep', ['10']);
  try {
    const [first] = allowedCoreList();
    repin(sleeper.pid, String(first));
    expect(allowedCoreList(sleeper.pid)).toEqual([first]);
  } finally {
    await sleeper.stop();
  }
});
