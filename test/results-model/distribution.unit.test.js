'use strict';
const { summarize, cdfAt, quantilePoints } = require('../../lib/results-model/distribution');
const { trendOf } = require('../support/k6-trend');

function exactPercentile(values, q) {
  return trendOf(values)[`p(${q})`];
}

describe('merging samples into one distribution', () => {
  test('one sample gives back its own percentiles', () => {
    const values = Array.from({ length: 5000 }, (_, i) => 1 + (i % 100) / 10);
    const merged = summarize([trendOf(values)]);
    expect(merged.count).toBe(5000);
    expect(merged.p50).toBeCloseTo(exactPercentile(values, 50), 1);
    expect(merged.p99).toBeCloseTo(exactPercentile(values, 99), 1);
  });

  test('a slow sample moves the merged p99 to where the pooled data has it, not to the average of p99s', () => {
    const fast = Array.from({ length: 9000 }, (_, i) => 1 + (i % 50) / 100); // 1.00–1.49 ms
    const slow = Array.from({ length: 1000 }, (_, i) => 50 + (i % 50)); // 50–99 ms
    const merged = summarize([trendOf(fast), trendOf(slow)]);
    const pooled = [...fast, ...slow];
    const averaged = (exactPercentile(fast, 99) + exactPercentile(slow, 99)) / 2;
    expect(merged.p99).toBeGreaterThan(90);
    expect(Math.abs(merged.p99 - exactPercentile(pooled, 99))).toBeLessThan(2);
    expect(Math.abs(merged.p99 - averaged)).toBeGreaterThan(20);
    // The median of the pool lies in the fast sample.
    expect(merged.p50).toBeLessThan(1.5);
    expect(merged.count).toBe(10000);
    expect(merged.max).toBe(99);
  });

  test('weights by count: a small sample barely moves the median', () => {
    const big = Array.from({ length: 10000 }, () => 2);
    const small = Array.from({ length: 100 }, () => 20);
    expect(summarize([trendOf(big), trendOf(small)]).p50).toBeCloseTo(2, 1);
  });

  test('empty input gives null, and the CDF interpolates between grid points', () => {
    expect(summarize([])).toBeNull();
    expect(summarize([{ count: 0 }])).toBeNull();
    const points = quantilePoints({ count: 2, min: 0, max: 10, 'p(50)': 5 });
    expect(cdfAt(points, 2.5)).toBeCloseTo(0.25);
    expect(cdfAt(points, -1)).toBe(0);
    expect(cdfAt(points, 11)).toBe(1);
  });
});
