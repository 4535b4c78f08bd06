'use strict';
// The router's figure under two generators: the shift with its interval, judged against the A/A
// bound, and why it moved, from the runs' own rates and CPU.
const { AA_BOUND, generatorEfficiency, verdictOf } = require('../../lib/results-model/generator-efficiency');

/** A cell k6 drove, cross-checked by haload: router µs per request under each, run by run. */
function cell({ k6Router, toolRouter, k6Rps = 4000, toolRps = 4000, costCurve } = {}) {
  const spreadOf = (samples) => ({
    min: Math.min(...samples),
    median: [...samples].sort((a, b) => a - b)[samples.length >> 1],
    max: Math.max(...samples),
    samples,
  });
  return {
    name: 'http:1k:keepalive',
    okRps: k6Rps,
    generator: { tool: 'k6', cpuCores: 0.9 },
    cost: {
      k6: { perRequestUs: spreadOf([100]) },
      haload: { perRequestUs: spreadOf([8]) },
      router: { perRequestUs: spreadOf(k6Router) },
    },
    crossCheck: { tool: 'haload', rps: toolRps, cpuCores: 0.05, routerUs: spreadOf(toolRouter) },
    costCurve,
  };
}

test('the verdict: inside the bound agrees, beyond depends, across it undecided, no interval too few', () => {
  expect(AA_BOUND).toBe(0.05);
  expect(verdictOf({ change: 0.01, low: -0.02, high: 0.04 })).toBe('agrees');
  expect(verdictOf({ change: -0.3, low: -0.35, high: -0.25 })).toBe('depends');
  expect(verdictOf({ change: 0.04, low: -0.01, high: 0.09 })).toBe('undecided');
  expect(verdictOf({ change: 0.4, low: null, high: null })).toBe('too few samples');
});

test('the same router cost under both generators agrees, with no reason given', () => {
  const e = generatorEfficiency(
    cell({ k6Router: [40, 40.4, 40.2, 39.8], toolRouter: [40.2, 40, 40.4, 39.9] }),
  );
  const [own, tool] = e.generators;
  expect(own).toMatchObject({ tool: 'k6', ownUs: { median: 100 } });
  expect(tool).toMatchObject({
    tool: 'haload',
    run: 'cross-check',
    ownUs: { median: 8 },
    verdict: 'agrees',
    why: [],
  });
  expect(tool.shift.low).toBeLessThanOrEqual(0);
});

test('a cheaper router under a faster, cheaper generator depends, and says why from the runs', () => {
  const costCurve = { fixedCores: 0.04, perRequestUs: 24 };
  const [, tool] = generatorEfficiency(
    cell({ k6Router: [40, 41, 42, 40], toolRouter: [26, 27, 25, 26], toolRps: 8000, costCurve }),
  ).generators;
  expect(tool.verdict).toBe('depends');
  expect(tool.shift.high).toBeLessThan(-AA_BOUND);
  // The cost curve at 4,000 and 8,000 req/s: 24 + 0.04 / rps.
  expect(tool.why[0]).toMatch(/haload drove 2\.00× k6's rate.*cost curve: 34 → 29 µs/);
  expect(tool.why[1]).toMatch(/k6 used 0\.90 cores beside the router, haload 0\.05/);
});

test("the cost curve's flat-out run is a third generator: haload's own µs and the router's, one run", () => {
  const c = cell({ k6Router: [40], toolRouter: [38] });
  c.costCurve = {
    points: [
      { offeredRps: 2000, rps: 2000, routerCores: 0.1, toolCores: 0.02 },
      { offeredRps: null, rps: 10000, routerCores: 0.3, toolCores: 0.1 },
    ],
  };
  const [, , flatOut] = generatorEfficiency(c).generators;
  expect(flatOut).toMatchObject({
    tool: 'haload',
    run: 'cost curve, flat out',
    rps: 10000,
    verdict: 'too few samples',
  });
  expect(flatOut.ownUs.median).toBeCloseTo(10, 6);
  expect(flatOut.routerUs.median).toBeCloseTo(30, 6);
  expect(flatOut.shift.change).toBeCloseTo(-0.25, 6);
});

test('one run a side: the change without an interval; a skipped or older cross-check still reads', () => {
  const [, one] = generatorEfficiency(cell({ k6Router: [40], toolRouter: [30] })).generators;
  expect(one.verdict).toBe('too few samples');
  expect(one.shift.change).toBeCloseTo(-0.25, 5);
  expect(one.why.length).toBeGreaterThan(0);
  const older = cell({ k6Router: [40], toolRouter: [30] });
  older.crossCheck = { tool: 'wrk', rps: 4000, cpuCores: 0.1, routerPerRequestUs: 40 };
  expect(generatorEfficiency(older).generators[1].shift.change).toBe(0);
  expect(generatorEfficiency({ name: 'x', crossCheck: { tool: 'wrk', skipped: 'open model' } })).toBeNull();
  expect(generatorEfficiency({ name: 'x' })).toBeNull();
});

test("the cost curve's runs at the cell's own rate: both generators at one rate, judged with an interval, no rate reason", () => {
  const c = cell({ k6Router: [40, 41, 40.5, 40.2], toolRouter: [30, 30, 30, 30], toolRps: 9000 });
  // haload held to k6's 4,000 req/s once per sample: the router at 0.124–0.128 cores, 31–32 µs.
  const atRate = (routerCores) => ({
    offeredRps: 4000,
    rps: 4000,
    routerCores,
    toolCores: 0.03,
    generatorRate: true,
  });
  c.costCurve = {
    points: [
      { offeredRps: null, rps: 9000, routerCores: 0.27, toolCores: 0.07 },
      atRate(0.124),
      atRate(0.126),
      atRate(0.128),
      atRate(0.125),
    ],
  };
  const sameRate = generatorEfficiency(c).generators.find((g) => g.run === "cost curve, at k6's rate");
  expect(sameRate).toMatchObject({ tool: 'haload', rps: 4000, verdict: 'depends' });
  expect(sameRate.routerUs.samples).toEqual([31, 31.5, 32, 31.25]);
  expect(sameRate.ownUs.median).toBeCloseTo(7.5, 6);
  expect(sameRate.shift.high).toBeLessThan(-AA_BOUND);
  // One rate: only the generators' CPU can say why.
  expect(sameRate.why).toHaveLength(1);
  expect(sameRate.why[0]).toMatch(/k6 used 0\.90 cores beside the router, haload 0\.03/);
});
