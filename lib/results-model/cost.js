'use strict';
// What a request costs each role in CPU, and what that says about capacity. CPU per successful
// request does not depend on who ran out first and is steadier than req/s on a noisy machine: it is
// the router's own figure even when the load generator was the limit.

/** { min, median, max } of a list of numbers (null entries left out), or null when empty. */
function spread(values) {
  const list = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (!list.length) return null;
  const mid = list.length >> 1;
  const median = list.length % 2 ? list[mid] : (list[mid - 1] + list[mid]) / 2;
  return { min: list[0], median, max: list[list.length - 1] };
}

/** Relative half-width of a spread around its median: (max − min) / 2 / median. */
function relativeSpread(s) {
  return s && s.median > 0 ? (s.max - s.min) / 2 / s.median : null;
}

/** µs of CPU per event: `cpuSeconds` spent over a sample for its `count` events. */
function microsPer(cpuSeconds, count) {
  if (typeof cpuSeconds !== 'number' || !(count > 0)) return null;
  return (cpuSeconds / count) * 1e6;
}

/**
 * Cost per successful request of each role, across the samples of a cell.
 * samples: [{ ok, handshakes, cpuSeconds: { router, k6, 'data-service-1', 'redis-1', … } }]: each
 * sample's successful requests, full handshakes, and the CPU seconds each process spent over it.
 * roles: { router: ['router'], service: ['data-service-1', …], redis: [...], k6: ['k6'] }: the
 * processes whose CPU adds up to each role. Returns { <role>: { perRequestUs: spread with
 * `samples`, perHandshakeUs: spread | null } }.
 */
function costPerRole(samples, roles) {
  const out = {};
  for (const [role, names] of Object.entries(roles)) {
    const roleSeconds = samples.map((s) => {
      const parts = names.map((n) => s.cpuSeconds[n]).filter((v) => typeof v === 'number');
      return parts.length ? parts.reduce((a, b) => a + b, 0) : null;
    });
    const perRequest = samples.map((s, i) => microsPer(roleSeconds[i], s.ok));
    const measured = spread(perRequest);
    out[role] = {
      // Each sample's own figure too, in order: what a comparison of two runs draws on.
      perRequestUs: measured && { ...measured, samples: perRequest.filter((v) => v !== null) },
      perHandshakeUs: spread(samples.map((s, i) => microsPer(roleSeconds[i], s.handshakes))),
    };
  }
  return out;
}

/**
 * Router capacity from its cost: per core (1 s ÷ cost), and projected at its configured threads,
 * which can use at most the cores the router may run on. A projection: it assumes the cost per
 * request stays flat up to saturation.
 */
function capacity(routerUsPerRequest, { threads, cores }) {
  if (!(routerUsPerRequest > 0)) return null;
  const perCore = 1e6 / routerUsPerRequest;
  const usableCores = Math.min(threads, cores);
  return { perCoreRps: perCore, usableCores, projectedRps: perCore * usableCores };
}

module.exports = { spread, relativeSpread, microsPer, costPerRole, capacity };
