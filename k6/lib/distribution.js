'use strict';
// Which statistics k6 keeps for every Trend in its summary. Besides the usual ones, a grid of
// quantiles (every 1 %, every 0.1 % above p99, and p99.99) describes the whole distribution, so
// the Node runner can merge several samples of a cell into one distribution (a mixture of their
// quantile functions, weighted by count) instead of averaging percentiles, which is wrong.

const QUANTILES = [];
for (let q = 1; q <= 99; q++) QUANTILES.push(q);
for (let q = 99.1; q < 99.95; q += 0.1) QUANTILES.push(Math.round(q * 10) / 10);
QUANTILES.push(99.99);

const TREND_STATS = ['count', 'avg', 'min', 'max', 'med', ...QUANTILES.map((q) => `p(${q})`)];

module.exports = { QUANTILES, TREND_STATS };
