'use strict';
// What the k6 scripts and the Node runner agree on about k6 as a generator: the open model's VU
// budget, sized and judged the same way, and the line that says its run began. CommonJS: k6
// imports it, Node requires it.

/**
 * What router-matrix.js logs in setup(), which k6 runs once it traps SIGINT: an early end (SIGINT)
 * sent before would be lost (k6 starts with it ignored: lib/load/k6.js), so lib/load/runner.js
 * waits for this line.
 */
const READY_LINE = 'router-lab: the run begins';

/** A VU that is waiting for a response cannot start the next request: at least this share busy. */
const BUSY_SHARE = 0.9;

/** The VU ceiling for an arrival rate: room for 100 ms per request, never below the preallocated VUs. */
function defaultMaxVus(preAllocatedVus, rate) {
  return rate ? Math.max(preAllocatedVus, Math.ceil(rate / 10)) : preAllocatedVus;
}

/** VUs busy on average (Little's law: iterations per second × seconds per iteration). */
function busyVus(iterationsPerSecond, iterationAvgMs) {
  if (!(iterationsPerSecond > 0) || !(iterationAvgMs > 0)) return 0;
  return (iterationsPerSecond * iterationAvgMs) / 1000;
}

/**
 * Whether k6 ran out of VUs. Having all maxVus allocated or active proves nothing by itself:
 * when the preallocated VUs already equal maxVus (the default for moderate rates) they are all
 * active from the start. It counts only when it shows: iterations were dropped while every VU
 * was in use, or nearly all VUs were busy on average.
 * m: { droppedIterations, vusActiveMax, maxVus, busyVus }
 */
function vusExhausted(m) {
  if (!m.maxVus) return false;
  const allInUse = (m.vusActiveMax || 0) >= m.maxVus;
  return (allInUse && m.droppedIterations > 0) || (m.busyVus || 0) >= BUSY_SHARE * m.maxVus;
}

module.exports = { BUSY_SHARE, READY_LINE, defaultMaxVus, busyVus, vusExhausted };
