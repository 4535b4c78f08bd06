'use strict';
// CPU use of processes and of the host, from /proc, sampled while a cell runs. The runner uses
// it to tell whether k6, the data-service instances or the router ran out of CPU.
const os = require('node:os');
const { readStat, treeCpuSeconds, hostCpuTimes } = require('../core/proc');
const { allowedCoreCount: allowedCores } = require('../core/cpus');

/**
 * CPU seconds a process (its threads included) has used so far, or null when it is gone. `{ tree:
 * pid }` counts the whole tree under pid (a pod's processes: the real router and its HAProxys).
 */
function processCpuSeconds(pid) {
  if (typeof pid === 'object') return treeCpuSeconds(pid.tree);
  const stat = readStat(pid);
  return stat ? stat.cpuSeconds : null;
}

/**
 * Samples the CPU of named pids and of the host every intervalMs. `result()` gives the average
 * cores each used over the sampled window, leaving out `trimMs` at both ends (start-up and the
 * end-of-test summary are not load), and the CPU seconds each used over the WHOLE run: divided by
 * the run's requests, that is CPU per request with no window to match (the router is idle while
 * k6 starts and ends, so its start and end cost nothing and count nothing).
 */
function startCpuMonitor(pids, { intervalMs = 250, trimMs = 500 } = {}) {
  const samples = [];
  const take = () => {
    const entry = { t: Date.now(), host: hostCpuTimes(), procs: {} };
    for (const [name, pid] of Object.entries(pids)) entry.procs[name] = processCpuSeconds(pid);
    samples.push(entry);
  };
  take();
  // A sampler never holds a command open: one left running after an error (Ctrl-C) would.
  const timer = setInterval(take, intervalMs).unref();
  return {
    stop() {
      clearInterval(timer);
      take();
    },
    result() {
      // Each process is measured over its own window: the one that exited (k6) has no reading
      // in the last sample.
      const window = (readable) => {
        const list = samples.filter(readable);
        if (list.length < 2) return null;
        const first = list[0];
        const last = list[list.length - 1];
        let from = list.find((x) => x.t >= first.t + trimMs) || first;
        let to = [...list].reverse().find((x) => x.t <= last.t - trimMs) || last;
        if (to.t - from.t < 500) [from, to] = [first, last];
        return to.t > from.t ? { from, to, seconds: (to.t - from.t) / 1000 } : null;
      };
      const cores = {};
      const cpuSeconds = {};
      for (const name of Object.keys(pids)) {
        const readable = samples.filter((x) => x.procs[name] !== null);
        const w = window((x) => x.procs[name] !== null);
        cores[name] = w ? (w.to.procs[name] - w.from.procs[name]) / w.seconds : null;
        cpuSeconds[name] =
          readable.length >= 2 ? readable[readable.length - 1].procs[name] - readable[0].procs[name] : null;
      }
      const hw = window((x) => x.host !== null);
      let hostBusyFraction = null;
      if (hw && hw.to.host.total > hw.from.host.total) {
        hostBusyFraction = (hw.to.host.busy - hw.from.host.busy) / (hw.to.host.total - hw.from.host.total);
      }
      return {
        seconds: hw ? hw.seconds : 0,
        cores,
        cpuSeconds,
        hostBusyFraction,
        hostCores: os.cpus().length,
      };
    },
  };
}

module.exports = { processCpuSeconds, allowedCores, startCpuMonitor };
