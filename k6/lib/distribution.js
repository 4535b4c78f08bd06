'use strict';
// Which statistics k6 keeps for every Trend: the usual ones and a grid of quantiles (every 1 %,
// every 0.1 % above p99, and p99.99), so the Node runner can merge a cell's samples into one
// distribution (a mixture of their quantile functions) instead of averaging percentiles.

const QUANTILES = [];
for (let q = 1; q <= 99; q++) QUANTILES.push(q);
for (let q = 99.1; q < 99.95; q += 0.1) QUANTILES.push(Math.round(q * 10) / 10);
QUANTILES.push(99.99);

const TREND_STATS = ['count', 'avg', 'min', 'max', 'med', ...QUANTILES.map((q) => `p(${q})`)];

module.exports = { QUANTILES, TREND_STATS };
