'use strict';
// Resident memory of the lab's processes (from /proc, lib/core/proc.js), to tell whether a
// fault or a long run makes one of them grow.
const { readStat, processTree } = require('../core/proc');
const { backendOf } = require('../lab/routers');

/**
 * The lab's processes by name: { router, 'data-service-1', …, 'redis-1', … } → pid; the real
 * router as { tree: pid }: openshift-router and its HAProxys, as its pod's memory counts them.
 */
function labPids(state) {
  return {
    router: backendOf(state.router).processes(state.router),
    ...Object.fromEntries(state.instances.map((i) => [i.name, i.pid])),
    ...Object.fromEntries(state.redis.pids.map((pid, i) => [`redis-${i + 1}`, pid])),
  };
}

/** Resident bytes of a pid, or of every process of a { tree: pid }; null when gone. */
function rssBytes(pid) {
  if (typeof pid !== 'object') return readStat(pid)?.rssBytes ?? null;
  const stats = processTree(pid.tree).map(readStat).filter(Boolean);
  return stats.length ? stats.reduce((sum, st) => sum + st.rssBytes, 0) : null;
}

/** { name: resident bytes, or null when the process is gone } for `pids` ({ name: pid }). */
function rssOf(pids) {
  return Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, rssBytes(pid)]));
}

const mb = (bytes) => Number((bytes / 1048576).toFixed(1));

/** Per process { beforeMb, afterMb, growthMb, gone } between two rssOf readings. */
function rssGrowth(before, after) {
  return Object.fromEntries(
    Object.keys(before).map((name) => {
      const a = after[name];
      const b = before[name];
      return [
        name,
        a === null || b === null
          ? { beforeMb: b === null ? null : mb(b), afterMb: null, growthMb: null, gone: true }
          : { beforeMb: mb(b), afterMb: mb(a), growthMb: mb(a - b), gone: false },
      ];
    }),
  );
}

module.exports = { labPids, rssOf, rssGrowth, mb };
