'use strict';
// Test fixtures shaped like k6's summary of a Trend metric, made from known values so a test can
// compare merged percentiles with the true percentiles of the pooled data.
const { QUANTILES } = require('../../k6/lib/distribution');

/** The k6 trend summary of `values`, with the quantile grid router-matrix.js asks k6 for. */
function trendOf(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => {
    const pos = (q / 100) * (sorted.length - 1);
    const lo = Math.floor(pos);
    return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (pos - lo);
  };
  const trend = {
    count: sorted.length,
    avg: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    med: at(50),
  };
  for (const q of QUANTILES) trend[`p(${q})`] = at(q);
  return trend;
}

module.exports = { trendOf };
