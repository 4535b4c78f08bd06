'use strict';
// The cost, capacity and sizing arithmetic, with made-up samples (pure functions).
const { spread, relativeSpread, microsPer, costPerRole, capacity } = require('../../lib/results-model/cost');
const { coresFor, sizeCell } = require('../../lib/results-model/sizing');

test('spread: min, median and max; empty lists and non-numbers give nothing', () => {
  expect(spread([3, 1, 2])).toEqual({ min: 1, median: 2, max: 3 });
  expect(spread([4, 1, 2, 3])).toEqual({ min: 1, median: 2.5, max: 4 });
  expect(spread([null, undefined, NaN])).toBeNull();
  expect(relativeSpread({ min: 90, median: 100, max: 110 })).toBeCloseTo(0.1);
});

test('µs per event is CPU seconds over events', () => {
  // 4 CPU seconds for 100 000 requests: 40 µs of CPU per request.
  expect(microsPer(4, 100000)).toBeCloseTo(40);
  expect(microsPer(4, 0)).toBeNull();
  expect(microsPer(null, 100)).toBeNull();
});

test('cost per role adds up the processes of a role and spreads across samples', () => {
  // Three 10 s samples: successful requests, and the CPU seconds each process spent.
  const samples = [
    { ok: 100000, handshakes: 0, cpuSeconds: { router: 3, 'data-service-1': 2, 'data-service-2': 2, k6: 9 } },
    {
      ok: 80000,
      handshakes: 0,
      cpuSeconds: { router: 3.2, 'data-service-1': 2, 'data-service-2': 1.6, k6: 8 },
    },
    {
      ok: 120000,
      handshakes: 0,
      cpuSeconds: { router: 3.6, 'data-service-1': 2.5, 'data-service-2': 2.3, k6: 10 },
    },
  ];
  const cost = costPerRole(samples, {
    router: ['router'],
    service: ['data-service-1', 'data-service-2'],
    k6: ['k6'],
  });
  expect(cost.router.perRequestUs.min).toBeCloseTo(30);
  expect(cost.router.perRequestUs.median).toBeCloseTo(30);
  expect(cost.router.perRequestUs.max).toBeCloseTo(40);
  expect(cost.service.perRequestUs.median).toBeCloseTo(40);
  expect(cost.k6.perRequestUs.min).toBeCloseTo(83.33, 1);
  // No handshakes (keep-alive after the first): no cost per handshake.
  expect(cost.router.perHandshakeUs).toBeNull();
});

test('a close cell has a cost per full handshake', () => {
  const cost = costPerRole([{ ok: 10000, handshakes: 10000, cpuSeconds: { router: 8 } }], {
    router: ['router'],
  });
  expect(cost.router.perHandshakeUs.median).toBeCloseTo(800);
});

test('capacity per core is 1 s over the cost; the projection is limited by threads and cores', () => {
  expect(capacity(40, { threads: 4, cores: 2 })).toEqual({
    perCoreRps: 25000,
    usableCores: 2,
    projectedRps: 50000,
  });
  expect(capacity(40, { threads: 1, cores: 2 }).projectedRps).toBe(25000);
  expect(capacity(0, { threads: 1, cores: 1 })).toBeNull();
});

test('sizing: cores for a TPS at a cost with headroom, rounded up to whole units', () => {
  // 5000 TPS at 100 µs = 0.5 cores busy; at 30 % headroom 0.714 cores: 1 core.
  expect(coresFor(5000, 100, 0.3)).toBeCloseTo(0.714, 3);
  const sized = sizeCell(
    { routerUs: 800, serviceUs: 150, k6Us: 900, wrkUs: 60 },
    { tps: 5000, headroom: 0.3 },
  );
  expect(sized.routerCores).toBe(6); // 4 / 0.7 = 5.71
  expect(sized.serviceInstances).toBe(2); // 0.75 / 0.7 = 1.07
  expect(sized.generatorCores).toEqual({ k6: 7, wrk: 1 }); // 4.5/0.7 = 6.43; 0.3/0.7 = 0.43
  expect(
    sizeCell({ routerUs: 40, serviceUs: null, k6Us: null, wrkUs: null }, { tps: 5000 }).serviceInstances,
  ).toBeNull();
});

test('sizing refuses a target or headroom that makes no sense, naming it', () => {
  expect(() => sizeCell({ routerUs: 1 }, { tps: 0 })).toThrow(/target TPS/);
  expect(() => sizeCell({ routerUs: 1 }, { tps: 5000, headroom: 1 })).toThrow(/headroom/);
});

describe("the cross-check's figures beside the cell's", () => {
  const { addCrossCheck } = require('../../lib/results-model/cell');
  const figures = { cost: { router: null, k6: null, wrk: null, haload: null } };

  test("its tool's µs per request, and the router's while that tool drove it", () => {
    // haload at 20,000 req/s on 0.5 cores, the router on 0.9 cores meanwhile.
    const checked = addCrossCheck(figures, {
      tool: 'haload',
      rps: 20000,
      cpuCores: 0.5,
      routerCpuCores: 0.9,
    });
    expect(checked.cost.haload.perRequestUs.median).toBe(25);
    expect(checked.crossCheck.routerPerRequestUs).toBe(45);
    expect(checked.cost.wrk).toBeNull();
  });

  test('over several runs: each figure a spread with every run in order', () => {
    const run = (rps, cpuCores, routerCpuCores) => ({ rps, cpuCores, routerCpuCores });
    const samples = [run(20000, 0.5, 0.9), run(10000, 0.3, 0.5), run(20000, 0.4, 0.8)];
    const checked = addCrossCheck(figures, { tool: 'haload', ...samples[0], samples });
    expect(checked.crossCheck.routerUs).toEqual({ min: 40, median: 45, max: 50, samples: [45, 50, 40] });
    expect(checked.crossCheck.routerPerRequestUs).toBe(45);
    expect(checked.cost.haload.perRequestUs).toEqual({ min: 20, median: 25, max: 30, samples: [25, 30, 20] });
  });

  test('a skipped one carries its reason only; an unmeasured router is null, not 0', () => {
    const skipped = { tool: 'wrk', skipped: 'open model' };
    expect(addCrossCheck(figures, skipped).crossCheck).toEqual(skipped);
    const noRouter = addCrossCheck(figures, { tool: 'wrk', rps: 100, cpuCores: 0.1, routerCpuCores: null });
    expect(noRouter.crossCheck.routerPerRequestUs).toBeNull();
  });
});
