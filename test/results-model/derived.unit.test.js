'use strict';
// What finalize derives from measured costs (pure, with made-up cells): the router's capacity and
// its projection, a close cell's cost per full handshake against the floor, the sizing at a target.
const { routerCores, capacityOf, floorMultipleOf, sizing } = require('../../lib/results-model/derived');
const { routerVerdict } = require('../../lib/results-model/verdicts');

const spread = (median, min = median, max = median) => ({ min, median, max });
const cell = (
  name,
  { router = 40, handshake = null, service = 20, k6 = 90, by = 'shared', okRps = 10000 } = {},
) => {
  const [termination, , connection] = name.split(':');
  return {
    name,
    termination,
    connection,
    okRps,
    limitedBy: { by, hostBusy: false, reasons: [] },
    cost: {
      router: {
        perRequestUs: spread(router),
        perHandshakeUs: handshake && spread(handshake, handshake * 0.9, handshake * 1.1),
      },
      service: { perRequestUs: spread(service), perHandshakeUs: handshake && spread(handshake / 2) },
      redis: null,
      k6: { perRequestUs: spread(k6), perHandshakeUs: null },
      wrk: null,
    },
  };
};

test("the router's cores: its threads, and the cores it may use (LAB_CPUS or the host's)", () => {
  expect(routerCores({ cores: 2, router: { threads: 4, cpus: null } })).toEqual({
    threads: 4,
    allowedCores: 2,
  });
  expect(routerCores({ cores: 8, router: { threads: 4, cpus: '0' } })).toEqual({
    threads: 4,
    allowedCores: 1,
  });
  expect(routerCores({ cores: 8, router: null })).toEqual({});
});

test('capacity per core from the median cost; the projection at the cores its threads can use', () => {
  const c = capacityOf(cell('http:1k:keepalive', { router: 40 }), { threads: 4, allowedCores: 2 });
  expect(c).toMatchObject({ perCoreRps: 25000, usableCores: 2, projectedRps: 50000, measuredRps: null });
  expect(c.basis).toMatch(/projection.*assumes the cost per request stays flat/);
  // Where the router was at its limit, the measured figure sits beside the projection.
  const atLimit = capacityOf(cell('edge:1k:close', { router: 800, by: 'router', okRps: 1200 }), {
    threads: 1,
    allowedCores: 1,
  });
  expect(atLimit).toMatchObject({ perCoreRps: 1250, projectedRps: 1250, measuredRps: 1200 });
  expect(capacityOf({ ...cell('x:1k:close'), cost: { router: null } }, {})).toBeNull();
});

test('a close TLS cell costs multiples of the handshake floor; the service does passthrough’s', () => {
  const floor = { floorUs: 250 };
  expect(floorMultipleOf(cell('edge:1k:close', { handshake: 750 }), floor)).toEqual({
    role: 'router',
    min: 2.7,
    median: 3,
    max: 3.3,
  });
  expect(floorMultipleOf(cell('passthrough:1k:close', { handshake: 750 }), floor)).toMatchObject({
    role: 'service',
    median: 1.5,
  });
  expect(floorMultipleOf(cell('edge:1k:keepalive', { handshake: 750 }), floor)).toBeNull();
  expect(floorMultipleOf(cell('http:1k:close', { handshake: 750 }), floor)).toBeNull();
  expect(floorMultipleOf(cell('edge:1k:close', { handshake: 750 }), null)).toBeNull();
});

test('sizing: every cell at the target, with the assumptions stated', () => {
  const s = sizing([cell('edge:1k:close', { router: 800, service: 150, k6: 900 })], {
    tps: 5000,
    headroom: 0.3,
  });
  expect(s.cells).toEqual([
    {
      name: 'edge:1k:close',
      routerCores: 6,
      routerBasis: 'median',
      serviceInstances: 2,
      k6Cores: 7,
      wrkCores: null,
    },
  ]);
  expect(s.assumptions.join(' ')).toMatch(/70 % busy \(30 % headroom\).*not a cluster measurement/);
  expect(s.assumptions.join(' ')).not.toMatch(/--cost-curve/);
});

test('sizing on a cost curve: fixed cores + µs per request × the target, not the cost at a low rate', () => {
  // Measured at a low rate the router cost 111 µs/req; its curve: 0.2 cores fixed + 60 µs/req.
  const curved = cell('http:1k:keepalive', { router: 111, service: 50, k6: 90 });
  curved.costCurve = { tool: 'haload', fixedCores: 0.2, perRequestUs: 60 };
  const s = sizing([curved, cell('edge:1k:keepalive', { router: 111, service: 50, k6: 90 })], {
    tps: 5000,
    headroom: 0.3,
  });
  // (0.2 + 5000 × 60 µs) ÷ 0.7 = 0.71 → 1 core; at the median, 5000 × 111 µs ÷ 0.7 = 0.79 → 1 as well.
  expect(s.cells.map((c) => [c.name, c.routerBasis])).toEqual([
    ['http:1k:keepalive', 'curve'],
    ['edge:1k:keepalive', 'median'],
  ]);
  const big = sizing([curved], { tps: 50000, headroom: 0.3 }).cells[0];
  // (0.2 + 3) ÷ 0.7 = 4.57 → 5, against 50000 × 111 µs ÷ 0.7 = 7.9 → 8 from the median.
  expect(big.routerCores).toBe(5);
  expect(s.assumptions.join(' ')).toMatch(
    /where --cost-curve fitted it: its fixed cores \+ µs per request × the target/,
  );
});

test('the router is at its limit only when it used most of the cores its threads can use', () => {
  // Pinned to one core and busy: the router.
  expect(routerVerdict({ routerCpuCores: 0.95, threads: 4, allowedCores: 1 }).saturated).toBe(true);
  // The same CPU with two usable cores: half of what it could use, not its limit.
  expect(routerVerdict({ routerCpuCores: 0.95, threads: 4, allowedCores: 2 }).saturated).toBe(false);
  // One thread can use one core, whatever the host has.
  expect(routerVerdict({ routerCpuCores: 0.9, threads: 1, allowedCores: 8 }).saturated).toBe(true);
  // Idle, or not measured: never.
  expect(routerVerdict({ routerCpuCores: 0.02, threads: 1, allowedCores: 1 }).saturated).toBe(false);
  expect(routerVerdict({ routerCpuCores: null, threads: 1, allowedCores: 1 }).saturated).toBe(false);
});
