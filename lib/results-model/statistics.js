'use strict';
// Did a change make a difference? The relative shift between two runs' samples of one figure, with
// a 95 % confidence interval: Hodges–Lehmann on the logarithms, with the interval from the exact
// Mann–Whitney distribution (distribution-free, robust to one noisy sample, honest at few samples).
const { spread } = require('./cost');

/** Counts of the Mann–Whitney U statistic for sample sizes n and m: counts[u], u = 0 … n·m. */
function mannWhitneyCounts(n, m) {
  // f[i][j][u]: ways for i and j samples; built up one sample at a time.
  let prev = Array.from({ length: m + 1 }, () => [1]); // i = 0: U = 0 only
  for (let i = 1; i <= n; i++) {
    const row = [[1]]; // j = 0: U = 0 only
    for (let j = 1; j <= m; j++) {
      const size = i * j + 1;
      const counts = new Array(size).fill(0);
      // The largest of the i + j values is from the first sample (adds j to U) or the second.
      prev[j].forEach((c, u) => (counts[u + j] += c));
      row[j - 1].forEach((c, u) => (counts[u] += c));
      row.push(counts);
    }
    prev = row;
  }
  return prev[m];
}

/**
 * The rank k of the exact interval: the largest k with P(U ≤ k − 1) ≤ alpha / 2, so that
 * [d(k), d(nm − k + 1)] of the sorted pairwise differences covers the shift with ≥ 1 − alpha.
 * 0 when no such k exists (too few samples for this confidence).
 */
function intervalRank(n, m, alpha = 0.05) {
  const counts = mannWhitneyCounts(n, m);
  const total = counts.reduce((a, b) => a + b, 0);
  let below = 0;
  let k = 0;
  for (let u = 0; u < counts.length; u++) {
    below += counts[u];
    if (below / total > alpha / 2) break;
    k = u + 1;
  }
  return k;
}

/**
 * The relative change from samples `a` to samples `b` (positive numbers): { change, low, high }
 * as fractions (0.05 = 5 % more in b); low and high null when the samples are too few for a 95 %
 * interval (4 a side at least).
 */
function relativeShift(a, b, { alpha = 0.05 } = {}) {
  if (![...a, ...b].every((v) => Number.isFinite(v) && v > 0)) {
    throw new Error('relative shifts need positive samples');
  }
  const diffs = [];
  for (const x of a) for (const y of b) diffs.push(Math.log(y) - Math.log(x));
  diffs.sort((p, q) => p - q);
  const k = intervalRank(a.length, b.length, alpha);
  const toChange = (d) => Math.exp(d) - 1;
  return {
    change: toChange(spread(diffs).median),
    low: k ? toChange(diffs[k - 1]) : null,
    high: k ? toChange(diffs[diffs.length - k]) : null,
  };
}

/** The spread of log samples around each side's own mean, pooled: a standard deviation. */
function pooledLogSpread(a, b) {
  const sq = (xs) => {
    const logs = xs.map(Math.log);
    const mean = logs.reduce((s, v) => s + v, 0) / logs.length;
    return logs.reduce((s, v) => s + (v - mean) ** 2, 0);
  };
  const dof = a.length + b.length - 2;
  return dof > 0 ? Math.sqrt((sq(a) + sq(b)) / dof) : null;
}

/**
 * Samples per side that would detect a `shift` (0.05 = 5 %) at this spread, with 80 % power at
 * 5 % two-sided: the normal approximation, divided by the Mann–Whitney test's efficiency (3/π),
 * and never under the 4 an exact interval needs. Null without a spread to go by.
 */
function samplesToDetect(a, b, shift = 0.05) {
  const sd = pooledLogSpread(a, b);
  if (sd === null) return null;
  const z = 1.959964 + 0.841621;
  const n = (2 * (z * sd) ** 2) / Math.log(1 + shift) ** 2 / (3 / Math.PI);
  return Math.max(4, Math.ceil(n));
}

/**
 * A verdict on one figure: 'higher', 'lower', 'no difference detectable' (the interval holds 0),
 * or 'too few samples' (no interval).
 */
function shiftVerdict({ low, high }) {
  if (low === null) return 'too few samples';
  if (low > 0) return 'higher';
  if (high < 0) return 'lower';
  return 'no difference detectable';
}

module.exports = { mannWhitneyCounts, intervalRank, relativeShift, samplesToDetect, shiftVerdict };
