'use strict';
// Resident memory of the lab's processes (from /proc, lib/core/proc.js), to tell whether a
// fault or a long run makes one of them grow.
const { readStat } = require('../core/proc');

/** The lab's processes by name: { router, 'data-service-1', …, 'redis-1', … } → pid. */
function labPids(state) {
  return {
    router: state.router.pid,
    ...Object.fromEntries(state.instances.map((i) => [i.name, i.pid])),
    ...Object.fromEntries(state.redis.pids.map((pid, i) => [`redis-${i + 1}`, pid])),
  };
}

/** { name: resident bytes, or null when the process is gone } for `pids` ({ name: pid }). */
function rssOf(pids) {
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, readStat(pid)?.rssBytes ?? null]),
  );
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
