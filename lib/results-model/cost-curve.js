'use strict';
// The router's CPU as a function of the rate it serves, cores = fixed + µs per request × rate, by
// least squares: fixed work per second (checks, timers) spreads over more requests at a higher
// rate, so one cost taken at a low rate overstates a request's at a target's rate. Pure.

// Student's t at 97.5 % for 1–10 degrees of freedom: the 95 % interval of the slope.
const T_975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228];

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

/** µs of router CPU per request at `rps` on the fitted curve: the fixed cores spread, plus the slope. */
function costAt(curve, rps) {
  if (!curve || !(rps > 0)) return null;
  return round(curve.perRequestUs + (Math.max(0, curve.fixedCores) / rps) * 1e6, 1);
}

module.exports = { fitCostCurve, costAt };
