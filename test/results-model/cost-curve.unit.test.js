'use strict';
// The router's CPU against the rate it served: the least-squares fit, its interval and R², and
// the cost per request it implies at a given rate.
const { fitCostCurve, costAt, atTarget } = require('../../lib/results-model/cost-curve');

test('a fit through points on a line gives back its fixed cores and µs per request', () => {
  const points = [1000, 2000, 4000, 8000].map((rps) => ({ rps, routerCores: 0.2 + rps * 60e-6 }));
  expect(fitCostCurve(points)).toEqual({
    n: 4,
    fixedCores: 0.2,
    perRequestUs: 60,
    interval: { low: 60, high: 60 },
    r2: 1,
  });
});

test('scattered points: the slope’s 95 % interval widens, R² falls below 1', () => {
  // Measured-like: 0.25 + 68 µs/req, ±0.02 cores of noise.
  const points = [
    { rps: 2150, routerCores: 0.41 },
    { rps: 4300, routerCores: 0.52 },
    { rps: 6450, routerCores: 0.72 },
    { rps: 8600, routerCores: 0.83 },
  ];
  const fit = fitCostCurve(points);
  // Slope: Σ(x − x̄)(y − ȳ) ÷ Σ(x − x̄)² = 1569.5 ÷ 23,112,500 cores per req/s.
  expect(fit.perRequestUs).toBe(67.9);
  expect(fit.interval.low).toBeLessThan(fit.perRequestUs);
  expect(fit.interval.high).toBeGreaterThan(fit.perRequestUs);
  expect(fit.r2).toBeGreaterThan(0.95);
  expect(fit.r2).toBeLessThan(1);
});

test('too little to fit: fewer than two measured rates, or one rate only', () => {
  expect(fitCostCurve([{ rps: 1000, routerCores: 0.1 }])).toBeNull();
  expect(
    fitCostCurve([
      { rps: 1000, routerCores: null },
      { rps: 2000, routerCores: 0.2 },
    ]),
  ).toBeNull();
  expect(
    fitCostCurve([
      { rps: 1000, routerCores: 0.1 },
      { rps: 1000, routerCores: 0.2 },
    ]),
  ).toBeNull();
  // Two points: a line, but no interval.
  expect(
    fitCostCurve([
      { rps: 1000, routerCores: 0.1 },
      { rps: 2000, routerCores: 0.15 },
    ]).interval,
  ).toBeNull();
});

test('the cost per request at a rate: the slope plus the fixed cores spread over that rate', () => {
  const curve = { fixedCores: 0.2, perRequestUs: 60 };
  // The measurement: at 3,767 req/s 111 µs, at 8,629 req/s 68 µs (−39 %).
  expect(costAt(curve, 3767)).toBe(113.1);
  expect(costAt(curve, 8629)).toBe(83.2);
  expect(costAt(curve, 0)).toBeNull();
  expect(costAt(null, 1000)).toBeNull();
});

describe('the point at the target rate', () => {
  const curve = (target) => ({
    points: [
      { offeredRps: null, rps: 20000, routerCores: 1.2 },
      { target: true, ...target },
    ],
  });
  const context = { router: { threads: 2, allowedCores: 2 }, generatorCores: 2 };

  test('met: the offered rate set the figure, and the router’s cores are named', () => {
    const at = atTarget(curve({ offeredRps: 5000, rps: 4990, routerCores: 0.41, toolCores: 0.1 }), context);
    expect(at).toMatchObject({ met: true, limit: 'load' });
    expect(at.text).toBe('met: 4990 of 5000 req/s offered, the router on 0.41 cores');
  });

  test('not met: the role at its own limit, from its cores; none at its limit is unknown', () => {
    const router = atTarget(
      curve({ offeredRps: 5000, rps: 3100, routerCores: 1.9, toolCores: 0.2 }),
      context,
    );
    expect(router).toMatchObject({ met: false, limit: 'router' });
    expect(router.text).toMatch(/^not met: 3100 of 5000 req\/s offered; the router used 1\.90 of the 2 core/);
    const generator = atTarget(
      curve({ offeredRps: 5000, rps: 3100, routerCores: 0.6, toolCores: 1.8 }),
      context,
    );
    expect(generator).toMatchObject({ met: false, limit: 'generator' });
    const neither = atTarget(
      curve({ offeredRps: 5000, rps: 3100, routerCores: 0.6, toolCores: 0.2 }),
      context,
    );
    expect(neither).toMatchObject({ met: false, limit: 'unknown' });
    expect(neither.text).toMatch(/no role at its own limit \(the router on 0\.60 cores\)/);
  });

  test('a curve without a target point (an older run) has none', () => {
    expect(atTarget({ points: [{ offeredRps: null, rps: 100, routerCores: 0.1 }] }, context)).toBeNull();
    expect(atTarget(null, context)).toBeNull();
  });
});
