'use strict';
// A process tree's CPU read from /proc every 200 ms while a run goes on, so that a test compares
// it with what Prometheus read over the very ranges it was asked about (results.json names them).
const { treeCpuSeconds } = require('../../lib/core/proc');

/** The tree's CPU seconds at `ms`, between the two readings around it ([[ms, seconds]], pure). */
function cpuAt(readings, ms) {
  const i = readings.findIndex(([t]) => t >= ms);
  if (i < 1) throw new Error(`no /proc reading before and after ${new Date(ms).toISOString()}`);
  const [[t0, c0], [t1, c1]] = [readings[i - 1], readings[i]];
  return c0 + ((c1 - c0) * (ms - t0)) / (t1 - t0);
}

/** { cpuSeconds, seconds } of the readings over windows [{ start, end }] in ISO 8601 (pure). */
function over(readings, windows) {
  let cpuSeconds = 0;
  let seconds = 0;
  for (const { start, end } of windows) {
    const [from, to] = [Date.parse(start), Date.parse(end)];
    cpuSeconds += cpuAt(readings, to) - cpuAt(readings, from);
    seconds += (to - from) / 1000;
  }
  return { cpuSeconds, seconds };
}

/** Runs `work()` while reading `pid`'s tree: { result, over(windows) }. */
async function withTreeCpu(pid, work, everyMs = 200) {
  const readings = [];
  const read = () => readings.push([Date.now(), treeCpuSeconds(pid)]);
  read();
  const timer = setInterval(read, everyMs);
  try {
    const result = await work();
    return { result, over: (windows) => over(readings, windows) };
  } finally {
    clearInterval(timer);
    read();
  }
}

module.exports = { withTreeCpu, over };
