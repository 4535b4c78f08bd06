'use strict';
// The router's CPU as a function of the rate it serves, cores = fixed + µs per request × rate, by
// least squares: fixed work per second (checks, timers) spreads over more requests at a higher
// rate, so one cost taken at a low rate overstates a request's at a target's rate. Pure.

// Student's t at 97.5 % for 1–10 degrees of freedom: the 95 % interval of the slope.
const T_975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228];

const { routerVerdict, generatorVerdict } = require('./verdicts');

const round = (v, digits = 0) => Number(v.toFixed(digits));

/**
 * The fit of points [{ rps, routerCores }]: { n, fixedCores, perRequestUs, interval: { low, high }
 * (µs, 95 %; null with 2 points), r2 }. Null with fewer than 2 points or rates all alike.
 */
function fitCostCurve(points) {
  const usable = points.filter((p) => p.rps > 0 && typeof p.routerCores === 'number');
  const n = usable.length;
  if (n < 2) return null;
  const meanX = usable.reduce((a, p) => a + p.rps, 0) / n;
  const meanY = usable.reduce((a, p) => a + p.routerCores, 0) / n;
  const sxx = usable.reduce((a, p) => a + (p.rps - meanX) ** 2, 0);
  if (!(sxx > 0)) return null;
  const sxy = usable.reduce((a, p) => a + (p.rps - meanX) * (p.routerCores - meanY), 0);
  const slope = sxy / sxx;
  const intercept = meanY - slope * meanX;
  const residual = usable.reduce((a, p) => a + (p.routerCores - intercept - slope * p.rps) ** 2, 0);
  const total = usable.reduce((a, p) => a + (p.routerCores - meanY) ** 2, 0);
  const df = n - 2;
  const halfWidth = df > 0 ? T_975[Math.min(df, T_975.length) - 1] * Math.sqrt(residual / df / sxx) : null;
  return {
    n,
    fixedCores: round(intercept, 3),
    perRequestUs: round(slope * 1e6, 1),
    interval:
      halfWidth === null
        ? null
        : { low: round((slope - halfWidth) * 1e6, 1), high: round((slope + halfWidth) * 1e6, 1) },
    r2: total > 0 ? round(1 - residual / total, 3) : null,
  };
}

/** A cell's fitted cost curve (--cost-curve), or null: skipped, or no cost per request to size on. */
const fittedCurve = (cell) => (cell.costCurve?.perRequestUs > 0 ? cell.costCurve : null);

/** µs of router CPU per request at `rps` on the fitted curve: the fixed cores spread, plus the slope. */
function costAt(curve, rps) {
  if (!curve || !(rps > 0)) return null;
  return round(curve.perRequestUs + (Math.max(0, curve.fixedCores) / rps) * 1e6, 1);
}

// haload held to -R serves about what it offers; below this share of it, the rate was not met.
const MET_SHARE = 0.95;

/**
 * The curve's point at the run's target rate, judged: { offeredRps, rps, routerCores, toolCores,
 * met, limit, text }. limit: 'load' where the rate was met (the offered rate set the figure), else
 * the roles at their own limit ('router', 'generator', both joined by +) or 'unknown'. `router`:
 * { threads, allowedCores }; `generatorCores`: the cores haload may use (k6's). Null without it.
 */
function atTarget(curve, { router = {}, generatorCores = null } = {}) {
  const point = curve?.points?.find((p) => p.target);
  if (!point) return null;
  const { offeredRps, rps, routerCores, toolCores = null } = point;
  const base = { offeredRps, rps, routerCores, toolCores };
  const share =
    routerCores > 0 ? `the router on ${routerCores.toFixed(2)} cores` : 'the router’s CPU not measured';
  if (rps >= MET_SHARE * offeredRps) {
    return {
      ...base,
      met: true,
      limit: 'load',
      text: `met: ${rps} of ${offeredRps} req/s offered, ${share}`,
    };
  }
  const limits = [
    ['router', routerVerdict({ routerCpuCores: routerCores, ...router })],
    ['generator', generatorVerdict({ tool: 'haload', cpuCores: toolCores, allowedCores: generatorCores })],
  ].filter(([, v]) => v.saturated);
  const why = limits.length
    ? limits.flatMap(([, v]) => v.reasons).join('; ')
    : `no role at its own limit (${share})`;
  return {
    ...base,
    met: false,
    limit: limits.length ? limits.map(([role]) => role).join('+') : 'unknown',
    text: `not met: ${rps} of ${offeredRps} req/s offered; ${why}`,
  };
}

module.exports = { fitCostCurve, fittedCurve, costAt, atTarget, MET_SHARE };
