'use strict';
// Resident memory of the lab's processes (from /proc, lib/core/proc.js), to tell whether a
// fault or a long run makes one of them grow.
const { rssBytes, megabytes } = require('../core/proc');
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

/** { name: resident bytes, or null when the process is gone } for `pids` ({ name: pid }). */
function rssOf(pids) {
  return Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, rssBytes(pid)]));
}

/** Per process { beforeMb, afterMb, growthMb, gone } between two rssOf readings. */
function rssGrowth(before, after) {
  return Object.fromEntries(
    Object.keys(before).map((name) => {
      const a = after[name];
      const b = before[name];
      return [
        name,
        a === null || b === null
          ? { beforeMb: megabytes(b), afterMb: null, growthMb: null, gone: true }
          : { beforeMb: megabytes(b), afterMb: megabytes(a), growthMb: megabytes(a - b), gone: false },
      ];
    }),
  );
}

module.exports = { labPids, rssOf, rssGrowth };
