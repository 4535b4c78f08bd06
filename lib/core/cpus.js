'use strict';
// Which cores a process may run on. The kernel's answer is the affinity mask, shown in
// /proc/<pid>/status as Cpus_allowed_list ("0-3", "2,3", "0-1,8-9"); inside a container or a
// cgroup cpuset it need not start at 0 nor be contiguous, so a core COUNT is not a core NUMBER.
const { readProcFile } = require('./proc');
const os = require('node:os');

/**
 * Parses a kernel CPU list ("0-3,8,10-11") into sorted, distinct core numbers. Throws an error
 * naming the bad item (an empty list is one: no process runs on no core).
 */
function parseCpuList(text) {
  const cores = new Set();
  for (const item of String(text).trim().split(',')) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(item.trim());
    if (!range) throw new Error(`bad core list item ${JSON.stringify(item)}`);
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from) throw new Error(`backwards core range ${JSON.stringify(item)}`);
    for (let c = from; c <= to; c++) cores.add(c);
  }
  return [...cores].sort((a, b) => a - b);
}

/** The reverse of parseCpuList, compact: [0, 1, 2, 5] -> "0-2,5". */
function formatCpuList(cores) {
  const sorted = [...new Set(cores)].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < sorted.length; i++) {
    const from = sorted[i];
    while (sorted[i + 1] === sorted[i] + 1) i++;
    parts.push(sorted[i] === from ? String(from) : `${from}-${sorted[i]}`);
  }
  return parts.join(',');
}

/**
 * Core numbers process `pid` may run on (default: this process). Where there is no /proc (not
 * Linux), every core of the host: 0..n-1.
 */
function allowedCoreList(pid = 'self', options) {
  // No /proc (or the process is gone): fall back to the host's cores.
  const status = readProcFile(pid, 'status', options) || '';
  const match = /^Cpus_allowed_list:\s*(\S+)/m.exec(status);
  if (match) return parseCpuList(match[1]);
  const count = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  return Array.from({ length: count }, (_, c) => c);
}

/** How many cores process `pid` may run on (its affinity), or the host's count without /proc. */
function allowedCoreCount(pid = 'self', options) {
  return allowedCoreList(pid, options).length;
}

module.exports = { parseCpuList, formatCpuList, allowedCoreList, allowedCoreCount };
