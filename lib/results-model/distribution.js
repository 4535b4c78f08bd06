'use strict';
// Samples of one cell merged into one latency distribution: the mixture of the samples' quantile
// grids (k6/lib/distribution.js) weighted by their counts, percentiles read from its CDF. Averaging
// the samples' percentiles instead would dilute a slow sample's tail.

/** The (value, cumulative fraction) points of one k6 trend summary, or null if it is empty. */
function quantilePoints(values) {
  if (!values || !values.count) return null;
  const points = [[values.min, 0]];
  const grid = Object.keys(values)
    .map((key) => /^p\((\d+(?:\.\d+)?)\)$/.exec(key))
    .filter(Boolean)
    .map((m) => [values[m[0]], Number(m[1]) / 100])
    .sort((a, b) => a[1] - b[1]);
  points.push(...grid, [values.max, 1]);
  // Quantile functions never decrease; rounding in k6's output must not make them.
  for (let i = 1; i < points.length; i++) points[i][0] = Math.max(points[i][0], points[i - 1][0]);
  return points;
}

/** Fraction of one sample's values at or below x, interpolated between grid points. */
function cdfAt(points, x) {
  if (x < points[0][0]) return 0;
  if (x >= points[points.length - 1][0]) return 1;
  let lo = 0;
  let hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid][0] <= x) lo = mid;
    else hi = mid;
  }
  const [x0, f0] = points[lo];
  const [x1, f1] = points[hi];
  return x1 === x0 ? f1 : f0 + ((x - x0) / (x1 - x0)) * (f1 - f0);
}

/**
 * Merges k6 trend summaries (`metrics[name].values`) into { count, avg, min, max, percentile(q) }.
 * Returns null when no sample has values.
 */
function mergeTrends(valuesList) {
  const parts = valuesList
    .map((values) => ({ values, points: quantilePoints(values) }))
    .filter((p) => p.points);
  if (!parts.length) return null;
  const count = parts.reduce((sum, p) => sum + p.values.count, 0);
  const min = Math.min(...parts.map((p) => p.values.min));
  const max = Math.max(...parts.map((p) => p.values.max));
  const avg = parts.reduce((sum, p) => sum + p.values.avg * p.values.count, 0) / count;
  const cdf = (x) => parts.reduce((sum, p) => sum + cdfAt(p.points, x) * p.values.count, 0) / count;
  function percentile(q) {
    const target = q / 100;
    if (target <= 0) return min;
    if (target >= 1) return max;
    let lo = min;
    let hi = max;
    for (let i = 0; i < 60 && hi - lo > 1e-9; i++) {
      const mid = (lo + hi) / 2;
      if (cdf(mid) < target) lo = mid;
      else hi = mid;
    }
    return hi;
  }
  return { count, avg, min, max, percentile };
}

/** { count, avg, min, max, p50, p90, p95, p99 } rounded to µs, or null. */
function summarize(valuesList) {
  const merged = mergeTrends(valuesList);
  if (!merged) return null;
  const round = (v) => Math.round(v * 1000) / 1000;
  return {
    count: merged.count,
    avg: round(merged.avg),
    min: round(merged.min),
    p50: round(merged.percentile(50)),
    p90: round(merged.percentile(90)),
    p95: round(merged.percentile(95)),
    p99: round(merged.percentile(99)),
    max: round(merged.max),
  };
}

module.exports = { quantilePoints, cdfAt, mergeTrends, summarize };
