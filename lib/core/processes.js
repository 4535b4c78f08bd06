'use strict';
// Starting and stopping the real processes the lab and the tests run (redis-server, haproxy,
// data-service instances). Daemons are detached and tracked by pid file; test children are
// attached and keep their output for diagnostics.
const fs = require('node:fs');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const { setTimeout: sleep } = require('node:timers/promises');
const { readStat, readProcFile } = require('./proc');

function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return err.code === 'EPERM';
  }
  // A zombie (exited, not yet reaped by its parent) is not alive for our purposes. Without /proc
  // (macOS) kill(0) is all we have.
  const stat = readStat(pid);
  return !stat || stat.state !== 'Z';
}

/**
 * The command that runs `file` with `args`, pinned to `cpus` (a taskset list such as "0" or
 * "0-1") when given: [command, argv]. taskset execs the program, so its pid becomes the
 * program's own. The one place that wraps a command in taskset.
 */
function pinned(file, args = [], cpus) {
  return cpus ? ['taskset', ['-c', String(cpus), file, ...args]] : [file, args];
}

/** Moves a running process (all its threads) to `cpus`, a taskset list: taskset -a -p -c. */
function repin(pid, cpus) {
  execFileSync('taskset', ['-a', '-p', '-c', String(cpus), String(pid)], { stdio: 'ignore' });
}

/** The command line of a running process, or '' when it is gone. */
function commandLine(pid) {
  try {
    const cmdline = readProcFile(pid, 'cmdline');
    if (cmdline === null) throw new Error('no /proc');
    return cmdline.split('\0').join(' ').trim();
  } catch {
    try {
      return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  }
}

function readPidFile(file) {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** Sends `signal`, waits up to timeoutMs for the exit, then SIGKILL. Returns how it ended. */
async function stopProcess(pid, { signal = 'SIGTERM', timeoutMs = 10000 } = {}) {
  if (!isAlive(pid)) return 'not-running';
  try {
    process.kill(pid, signal);
  } catch {
    return 'not-running';
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return 'stopped';
    await sleep(50);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return 'stopped';
  }
  while (isAlive(pid)) await sleep(20);
  return 'killed';
}

/**
 * Starts a process that outlives this one: own session, output appended to logFile, pid written
 * to pidFile. With `cpus` (a taskset list such as "0" or "0-1"), it is pinned to those cores;
 * taskset execs the program, so the pid is the program's own.
 */
function startDaemon({ file, args = [], env = process.env, cwd, logFile, pidFile, cpus }) {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.mkdirSync(path.dirname(pidFile), { recursive: true });
  const out = fs.openSync(logFile, 'a');
  const [cmd, argv] = pinned(file, args, cpus);
  const child = spawn(cmd, argv, { cwd, env, detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  child.unref();
  if (!child.pid) throw new Error(`could not start ${file}`);
  fs.writeFileSync(pidFile, `${child.pid}\n`);
  return child.pid;
}

/** Keeps the last `limit` characters of a child's stdout and stderr; returns a reader of them. */
function keepOutput(child, limit = 64 * 1024) {
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-limit);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return () => output;
}

/**
 * Starts an attached child for tests. Its output is kept (last 64 kB) for error messages.
 * `stop()` sends SIGTERM, then SIGKILL after timeoutMs, and resolves with the exit code.
 */
function startChild(file, args = [], { env = process.env, cwd } = {}) {
  const child = spawn(file, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = keepOutput(child);
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    pid: child.pid,
    exited,
    output,
    async stop({ signal = 'SIGTERM', timeoutMs = 10000 } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        const result = await exited;
        clearTimeout(timer);
        return result;
      }
      return exited;
    },
  };
}

module.exports = {
  isAlive,
  pinned,
  repin,
  keepOutput,
  commandLine,
  readPidFile,
  stopProcess,
  startDaemon,
  startChild,
};
