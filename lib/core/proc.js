'use strict';
// The one reader of /proc: process state, CPU and start times, host CPU counters, kernel settings,
// and any /proc/<pid>/<file> as text. Linux only; every reader returns null where there is no /proc
// (macOS) or the process is gone, and callers decide what that means.
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');

const asked = new Map();
/** A `getconf` value as a number, asked once; `fallback` where getconf is missing or says nothing. */
function getconf(name, fallback) {
  if (!asked.has(name)) {
    let value;
    try {
      value = Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim()) || fallback;
    } catch {
      value = fallback;
    }
    asked.set(name, value);
  }
  return asked.get(name);
}

/** Kernel clock ticks per second (USER_HZ), the unit of /proc/<pid>/stat times. */
const clockTicks = () => getconf('CLK_TCK', 100);

/** The memory page size in bytes, the unit of /proc/<pid>/stat's rss. */
const pageSize = () => getconf('PAGESIZE', 4096);

/**
 * Parses the text of /proc/<pid>/stat: { state, utime, stime, startTime, cpuSeconds, rssBytes }. The
 * command name (field 2) is in parentheses and may itself hold spaces and parentheses, so the
 * fields are counted from the LAST ')'. Times are in clock ticks; startTime is kept as the
 * kernel's text (ticks since boot), an identity rather than a quantity.
 */
function parseStat(text) {
  const close = text.lastIndexOf(')');
  if (close < 0) throw new Error(`not a /proc/<pid>/stat line: ${JSON.stringify(text.slice(0, 80))}`);
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is field 3 of proc(5): state; utime, stime, starttime and rss are fields 14, 15, 22
  // and 24.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  // cutime and cstime (fields 16, 17): the children this process has waited for.
  const waited = Number(fields[13]) + Number(fields[14]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new Error(`no CPU times in /proc/<pid>/stat: ${JSON.stringify(text.slice(0, 80))}`);
  }
  return {
    state: fields[0],
    utime,
    stime,
    startTime: fields[19] || null,
    cpuSeconds: (utime + stime) / clockTicks(),
    childrenCpuSeconds: Number.isFinite(waited) ? waited / clockTicks() : 0,
    // Resident memory (pages in RAM), for memory growth under faults and soaks.
    rssBytes: fields[21] === undefined ? null : Number(fields[21]) * pageSize(),
  };
}

/**
 * /proc/<pid>/stat parsed, or null when the process is gone (also when it is reaped in the middle
 * of the read) or there is no /proc: the CPU monitor reads it from a timer and must never throw.
 */
function readStat(pid) {
  try {
    return parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** Host CPU counters summed over all cores, in ticks: { busy, total }, or null without /proc. */
function hostCpuTimes() {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = values[3] + (values[4] || 0); // idle + iowait
    const total = values.slice(0, 8).reduce((a, b) => a + b, 0); // guest time is counted in user
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * A /proc/<pid>/<file> as text (pid 'self' for this process), or null without it. `procDir`
 * lets a test read a made-up tree.
 */
function readProcFile(pid, file, { procDir = '/proc' } = {}) {
  try {
    return fs.readFileSync(`${procDir}/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
}

/** A process and every live descendant (pids), through each thread's children list; [] when gone. */
function processTree(pid) {
  if (!readStat(pid)) return [];
  return [pid, ...childrenOf(pid).flatMap(processTree)];
}

/**
 * A process's children (pids), from every thread's children list: a child belongs to the thread
 * that forked it, so a multi-threaded parent (a Go program) lists them across its threads.
 */
function childrenOf(pid) {
  let tasks;
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = tasks.flatMap((tid) =>
    (readProcFile(pid, `task/${tid}/children`) || '').trim().split(/\s+/),
  );
  return [...new Set(children.filter(Boolean))].map(Number);
}

/**
 * CPU seconds of a process tree, as a container's cgroup counts them: every live process of it,
 * and the children each has reaped. Null when the process is gone.
 */
function treeCpuSeconds(pid) {
  const stats = processTree(pid).map(readStat).filter(Boolean);
  if (!stats.length) return null;
  return stats.reduce((sum, st) => sum + st.cpuSeconds + st.childrenCpuSeconds, 0);
}

/** The pids whose command line (arguments joined by spaces) includes `text`. */
function pidsRunning(text) {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => (readProcFile(d, 'cmdline') || '').split('\0').join(' ').includes(text))
    .map(Number);
}

/** A kernel setting by its sysctl name ('net.ipv4.tcp_tw_reuse') as text, or null without it. */
function sysctl(name) {
  try {
    return fs.readFileSync(`/proc/sys/${name.replace(/\./g, '/')}`, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Resident bytes of a pid, or of every process of a { tree: pid }; null when gone. */
function rssBytes(pid) {
  if (typeof pid !== 'object') return readStat(pid)?.rssBytes ?? null;
  const stats = processTree(pid.tree).map(readStat).filter(Boolean);
  return stats.length ? stats.reduce((sum, st) => sum + st.rssBytes, 0) : null;
}

/** Bytes as MB with one decimal, as the lab reports memory; null stays null. */
const megabytes = (bytes) => (bytes === null ? null : Number((bytes / 1048576).toFixed(1)));

module.exports = {
  rssBytes,
  megabytes,
  clockTicks,
  pidsRunning,
  pageSize,
  parseStat,
  readStat,
  readProcFile,
  processTree,
  childrenOf,
  treeCpuSeconds,
  hostCpuTimes,
  sysctl,
};
