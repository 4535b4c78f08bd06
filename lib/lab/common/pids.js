'use strict';
// Which processes this lab started: beside each pid file, a record of what identifies the process
// beyond its pid (a piece of its command line, its start time), so that lab:down and lab:status
// never signal a pid the kernel has reused for something else.
const fs = require('node:fs');
const path = require('node:path');
const { isAlive, commandLine, readPidFile, stopProcess } = require('../../core/processes');
const { readStat } = require('../../core/proc');

const pidDir = (labDir) => path.join(labDir, 'pids');
const pidFile = (labDir, name) => path.join(pidDir(labDir), `${name}.pid`);
const recordFile = (labDir, name) => path.join(pidDir(labDir), `${name}.json`);
const logFile = (labDir, name) => path.join(labDir, 'logs', `${name}.log`);

/** Kernel start time of a process (clock ticks since boot), or null without /proc. */
function startTime(pid) {
  const stat = readStat(pid);
  return stat ? stat.startTime : null;
}

/** Records a started process: `match` is a string its command line must contain. */
function recordProcess(labDir, name, pid, { match, role }) {
  const record = { name, role, pid, match, startTime: startTime(pid) };
  fs.writeFileSync(recordFile(labDir, name), `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

/** Every recorded process (also those whose pid file exists without a record). */
function listRecords(labDir) {
  let files;
  try {
    files = fs.readdirSync(pidDir(labDir));
  } catch {
    return [];
  }
  const names = new Set(files.filter((f) => /\.(pid|json)$/.test(f)).map((f) => f.replace(/\.\w+$/, '')));
  return [...names].sort().map((name) => {
    let record = { name, pid: readPidFile(pidFile(labDir, name)), match: null, startTime: null };
    try {
      record = { ...record, ...JSON.parse(fs.readFileSync(recordFile(labDir, name), 'utf8')) };
    } catch {
      // pid file without a record: the process was started but not yet recorded (interrupted).
    }
    return record;
  });
}

/**
 * 'running' when the recorded process is alive and still the one we started, 'gone' when it
 * exited, 'foreign' when its pid now belongs to another program (never touch it).
 */
function processState(record) {
  if (!record.pid || !isAlive(record.pid)) return 'gone';
  // pid + kernel start time identify a process uniquely, and exec keeps both. The command line is
  // not an identity on Linux: it changes when taskset (LAB_CPUS) execs the program, and reads
  // empty for a moment during any exec. It is the check only where there is no /proc (macOS).
  if (record.startTime) return startTime(record.pid) === record.startTime ? 'running' : 'foreign';
  if (record.match && !commandLine(record.pid).includes(record.match)) return 'foreign';
  // A bare pid file (no record) is trusted only as far as the command line shows a lab program.
  if (!record.match && !/redis-server|haproxy|server\.js/.test(commandLine(record.pid))) return 'foreign';
  return 'running';
}

function forget(labDir, name) {
  fs.rmSync(pidFile(labDir, name), { force: true });
  fs.rmSync(recordFile(labDir, name), { force: true });
}

/** A reloaded router's old process, still finishing its connections, is recorded under this name. */
const DRAINING = 'router-draining-';

/**
 * Forgets the records of old router processes that have finished draining and exited, so that
 * lab:status and lab:up do not count them as dead lab processes.
 */
function forgetDrainedRouters(labDir) {
  for (const r of listRecords(labDir)) {
    if (r.name.startsWith(DRAINING) && processState(r) !== 'running') forget(labDir, r.name);
  }
}

/** Stops one recorded process if it is still ours; forgets it either way. Returns what happened. */
async function stopRecorded(labDir, record, { timeoutMs = 15000, signal = 'SIGTERM' } = {}) {
  const state = processState(record);
  let result = state;
  if (state === 'running') result = await stopProcess(record.pid, { signal, timeoutMs });
  forget(labDir, record.name);
  return result;
}

module.exports = {
  pidDir,
  pidFile,
  logFile,
  recordProcess,
  listRecords,
  processState,
  stopRecorded,
  forget,
  forgetDrainedRouters,
  DRAINING,
  startTime,
};
