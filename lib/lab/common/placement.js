'use strict';
// LAB_CPUS: which cores the router, the data-service instances and Redis run on (with taskset).
// On one workstation everything shares cores with the load generator; pinning keeps them apart.

const { parseCpuList, formatCpuList } = require('../../core/cpus');

const ROLES = ['router', 'service', 'redis'];

function placementError(problem) {
  const err = new Error(
    `LAB_CPUS ${problem}; expected e.g. router=0,service=1,redis=1 (roles: ${ROLES.join(', ')})`,
  );
  err.variable = 'LAB_CPUS';
  return err;
}

/** One role's cores ("0", "0-1"), each of which this process must be allowed to run on. */
function parseCores(text, allowed) {
  let cores;
  try {
    cores = parseCpuList(text);
  } catch (err) {
    throw placementError(`has a ${err.message}`);
  }
  const refused = cores.filter((c) => !allowed.includes(c));
  if (refused.length) {
    throw placementError(
      `names core ${formatCpuList(refused)}, but this process may run on cores ${formatCpuList(allowed)} only`,
    );
  }
  return cores;
}

/**
 * Parses LAB_CPUS:
 *   router=0,service=1,redis=1        one core each
 *   router=0-1,service=2,3,redis=3    ranges, and lists (a bare number continues the last role)
 * Cores no role names are "free": left to the load generator. Only cores this process may run on
 * (its affinity, e.g. a container's cpuset) can be named; taskset would refuse the others.
 * Returns null when unset, else { router, service, redis, free } core lists.
 * `allowed`: the core numbers this process may use (lib/core/cpus.js allowedCoreList), which
 * on a restricted cpuset need not start at 0 (e.g. [2, 3]).
 */
function parsePlacement(raw, allowed) {
  if (raw === undefined || raw === '') return null;
  const placement = { router: [], service: [], redis: [] };
  let role = null;
  for (const token of raw.split(',').map((t) => t.trim())) {
    if (!token) throw placementError(`has an empty entry in ${JSON.stringify(raw)}`);
    let cores = token;
    if (token.includes('=')) {
      [role, cores] = token.split('=', 2).map((s) => s.trim());
      if (!ROLES.includes(role)) throw placementError(`has an unknown role ${JSON.stringify(role)}`);
      if (placement[role].length) throw placementError(`names ${role} twice`);
    } else if (!role) {
      throw placementError(`must start with a role, got ${JSON.stringify(token)}`);
    }
    for (const core of parseCores(cores, allowed)) {
      if (!placement[role].includes(core)) placement[role].push(core);
    }
  }
  const used = new Set([...placement.router, ...placement.service, ...placement.redis]);
  placement.free = allowed.filter((c) => !used.has(c));
  return placement;
}

/** A taskset core list ("0,2-3" style, here simply "0,2,3") or null for "not pinned". */
function tasksetList(cores) {
  return cores && cores.length ? cores.join(',') : null;
}

/**
 * The placement as recorded in lab.json: core numbers per role, null for a role that is not
 * pinned; `free` lists the cores no role uses (null when LAB_CPUS is unset).
 */
function describePlacement(placement) {
  if (!placement) return { router: null, service: null, redis: null, free: null };
  const cores = (list) => (list.length ? [...list] : null);
  return {
    router: cores(placement.router),
    service: cores(placement.service),
    redis: cores(placement.redis),
    free: [...placement.free],
  };
}

module.exports = { parsePlacement, tasksetList, describePlacement, ROLES };
