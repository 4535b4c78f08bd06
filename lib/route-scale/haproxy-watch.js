'use strict';
// Every HAProxy under the real router, sampled while routes change: when each was seen, when a
// newer one took over (a reload), when it exited, and its resident memory. The old processes a
// reload leaves behind are what a Route change costs in memory.
const { haproxyMemory } = require('../lab/openshift-router/router-metrics');

const round = (v) => Number(v.toFixed(1));

/** Folds one sample ([{ pid, rssMb }], newest first, taken at `atMs`) into `seen` (pid → entry). */
function addSample(seen, list, atMs) {
  for (const [i, { pid, rssMb }] of list.entries()) {
    const entry = seen.get(pid) ?? { pid, firstMs: atMs, lastMs: atMs, supersededMs: null, peakMb: 0 };
    entry.lastMs = atMs;
    entry.peakMb = Math.max(entry.peakMb, rssMb);
    if (i > 0 && entry.supersededMs === null) entry.supersededMs = atMs;
    seen.set(pid, entry);
  }
  // An old process whose connections all closed between two samples is never seen beside its
  // successor: gone while a newer one serves, it was superseded all the same (its life after the
  // reload, 0 here, is a lower bound: under one sampling interval).
  const present = new Set(list.map((p) => p.pid));
  const newestFirstMs = list.length ? seen.get(list[0].pid).firstMs : null;
  for (const entry of seen.values()) {
    const succeeded = newestFirstMs !== null && newestFirstMs > entry.firstMs;
    if (succeeded && entry.supersededMs === null && !present.has(entry.pid))
      entry.supersededMs = entry.lastMs;
  }
}

/**
 * What the samples show (pure): the serving process's memory, each old process's peak memory and
 * how long it lived after a newer one took over (null while it still runs), and the peak of all
 * HAProxy memory at once.
 */
function summarizeWatch({ seen, peak, lastMs }) {
  const entries = [...seen.values()];
  const old = entries
    .filter((e) => e.supersededMs !== null)
    .map((e) => {
      const gone = e.lastMs < lastMs;
      return { pid: e.pid, peakMb: e.peakMb, gone, livedMs: gone ? e.lastMs - e.supersededMs : null };
    });
  const serving = entries.filter((e) => e.supersededMs === null).sort((a, b) => b.firstMs - a.firstMs)[0];
  return {
    servingMb: serving ? serving.peakMb : null,
    old,
    oldStillRunning: old.filter((o) => !o.gone).length,
    peakProcesses: peak.processes,
    peakTotalMb: round(peak.totalMb),
  };
}

/**
 * Samples the HAProxy processes of the router (host pid `routerPid`) every `intervalMs` until
 * `stop()`, which resolves the summary (summarizeWatch).
 */
function watchHaproxy(routerPid, { intervalMs = 100 } = {}) {
  const begin = Date.now();
  const seen = new Map();
  const peak = { processes: 0, totalMb: 0 };
  let lastMs = 0;
  const take = () => {
    lastMs = Date.now() - begin;
    const list = haproxyMemory(routerPid);
    addSample(seen, list, lastMs);
    peak.processes = Math.max(peak.processes, list.length);
    peak.totalMb = Math.max(
      peak.totalMb,
      list.reduce((sum, p) => sum + p.rssMb, 0),
    );
  };
  take();
  // A sampler never holds a command open: one left running after an error (Ctrl-C) would.
  const timer = setInterval(take, intervalMs).unref();
  return {
    stop() {
      clearInterval(timer);
      take();
      return summarizeWatch({ seen, peak, lastMs });
    },
  };
}

/**
 * Watches the router's HAProxys while `work()` runs, stopping the watch however it ends. Resolves
 * { result (what work resolved), haproxy (the summary) }.
 */
async function watchHaproxyDuring(routerPid, work) {
  const watch = watchHaproxy(routerPid);
  let haproxy;
  let result;
  try {
    result = await work();
  } finally {
    haproxy = watch.stop();
  }
  return { result, haproxy };
}

module.exports = { watchHaproxy, watchHaproxyDuring, summarizeWatch, addSample };
