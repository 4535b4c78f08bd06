'use strict';
// The shift between two runs on made-up samples with known answers: none, a large one, one too small
// for the spread, and the interval's coverage over many random draws.
const {
  mannWhitneyCounts,
  intervalRank,
  relativeShift,
  samplesToDetect,
  shiftVerdict,
} = require('../../lib/results-model/statistics');

/** A seeded generator (mulberry32), and log-normal samples around `center` from it. */
function random(seed) {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}
function lognormal(rng, center, sd, n) {
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  return Array.from({ length: n }, () => center * Math.exp(sd * normal()));
}

test('the exact Mann–Whitney distribution, and the rank of a 95 % interval (none with 3 a side)', () => {
  expect(mannWhitneyCounts(2, 2)).toEqual([1, 1, 2, 1, 1]);
  expect(mannWhitneyCounts(4, 4).reduce((a, b) => a + b, 0)).toBe(70);
  expect(intervalRank(3, 3)).toBe(0);
  expect(intervalRank(4, 4)).toBe(1);
  expect(intervalRank(10, 10)).toBe(24); // the tables' critical value 23, plus one
});

test('identical samples: no difference', () => {
  const a = [100, 102, 98, 101, 99];
  const shift = relativeShift(a, [...a]);
  expect(shift.change).toBeCloseTo(0, 10);
  expect(shift.low).toBeLessThan(0);
  expect(shift.high).toBeGreaterThan(0);
  expect(shiftVerdict(shift)).toBe('no difference detectable');
});

test('a 20 % shift with a small spread is detected, its interval around it', () => {
  const rng = random(1);
  const a = lognormal(rng, 100, 0.02, 5);
  const b = lognormal(rng, 120, 0.02, 5);
  const shift = relativeShift(a, b);
  expect(shiftVerdict(shift)).toBe('higher');
  expect(shift.low).toBeLessThan(0.2);
  expect(shift.high).toBeGreaterThan(0.2);
  expect(shiftVerdict(relativeShift(b, a))).toBe('lower');
});

test('a 2 % shift with a large spread is not detected, and says how many samples would be', () => {
  const rng = random(2);
  const a = lognormal(rng, 100, 0.1, 5);
  const b = lognormal(rng, 102, 0.1, 5);
  expect(shiftVerdict(relativeShift(a, b))).toBe('no difference detectable');
  expect(samplesToDetect(a, b, 0.05)).toBeGreaterThan(20);
  expect(samplesToDetect([100, 100.1, 99.9, 100], [105, 105.1, 104.9, 105], 0.05)).toBe(4);
});

test('too few samples: no interval, and the verdict says so', () => {
  const shift = relativeShift([100, 101, 99], [120, 121, 119]);
  expect(shift).toMatchObject({ low: null, high: null });
  expect(shift.change).toBeCloseTo(0.2, 2);
  expect(shiftVerdict(shift)).toBe('too few samples');
  expect(() => relativeShift([0, 1, 2, 3], [1, 2, 3, 4])).toThrow(/positive/);
});

test('the interval covers the true shift about 95 % of the time over many draws (at least 93 % of 400)', () => {
  const rng = random(3);
  let covered = 0;
  const draws = 400;
  for (let i = 0; i < draws; i++) {
    const { low, high } = relativeShift(lognormal(rng, 100, 0.05, 6), lognormal(rng, 110, 0.05, 6));
    if (low <= 0.1 && high >= 0.1) covered++;
  }
  // Exact intervals cover at least their level; 400 draws put 0.93 about 2.5 standard errors below.
  expect(covered / draws).toBeGreaterThanOrEqual(0.93);
});
