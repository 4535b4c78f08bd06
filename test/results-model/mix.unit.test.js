'use strict';
// sizing --mix on a fixture run: each entry's share of the router's cores, the cores they add up
// to, the router's shape (replicas × threads), the service's pods, the limit; bad mixes refused.
const path = require('node:path');
const { readResults } = require('../../lib/results-model/document');
const { parseMix, sizeMix, routerShape, OPENSHIFT_ROUTER } = require('../../lib/results-model/mix');

const results = readResults(path.join(__dirname, '../fixtures/matrix-results'));
const size = (text, opts = {}) =>
  sizeMix(results, parseMix(text.split(',')), { tps: 5000, headroom: 0.3, ...opts });

test("the bank's mix: each entry's share of the router's cores adds up, and the cores are their sum over the headroom", () => {
  const mix = size('edge=60,reencrypt=30,passthrough=10');
  expect(mix.entries.map((e) => [e.key, e.cell, e.tps])).toEqual([
    ['edge', 'edge:1k:keepalive', 3000],
    ['reencrypt', 'reencrypt:1k:keepalive', 1500],
    ['passthrough', 'passthrough:1k:keepalive', 500],
  ]);
  const shares = mix.entries.map((e) => e.routerCoreShare);
  expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
  // 3000 × 50.3 µs + 1500 × 67.5 µs + 500 × 27.4 µs = 0.26585 busy cores, ÷ 0.7.
  expect(mix.router.exactCores).toBeCloseTo(0.26585 / 0.7, 4);
  expect(mix.router.cores).toBe(1);
  // Re-encrypt costs the router more per request than edge: at half edge's TPS, more than half its cores.
  const [edge, reencrypt] = mix.entries;
  expect(reencrypt.routerCoreShare / reencrypt.percent).toBeGreaterThan(edge.routerCoreShare / edge.percent);
});

test('close cells: the full handshake by default, whole cores, a shape of replicas × threads, and the limit', () => {
  const mix = size('edge:1k:close=50,reencrypt:4k:close=50', { router: { threads: 2, replicas: 2 } });
  expect(mix.entries.map((e) => e.cell)).toEqual(['edge:1k:close:full', 'reencrypt:4k:close:full']);
  // 2500 × 760.5 µs + 2500 × 1221.2 µs = 4.954 busy cores, ÷ 0.7 = 7.08: 8 cores.
  expect(mix.router.cores).toBe(8);
  expect(mix.router.shape).toEqual({ replicas: 4, threads: 2, cores: 8 });
  expect(mix.service.pods).toBe(Math.ceil((2500 * 354.9 + 2500 * 746.3) / 1e6 / 0.7));
  expect(mix.limit).toMatchObject({ role: 'router', cores: 8 });
});

test("on cost curves: each entry at its curve's µs per request, the router's fixed cores counted once", () => {
  const withCurves = structuredClone(results);
  const curve = (name, fixedCores, perRequestUs) => {
    withCurves.cells.find((c) => c.name === name).costCurve = { tool: 'haload', fixedCores, perRequestUs };
  };
  curve('edge:1k:keepalive', 0.19, 23);
  curve('reencrypt:1k:keepalive', 0.2, 40);
  const mix = sizeMix(withCurves, parseMix(['edge=60', 'reencrypt=30', 'passthrough=10']), {
    tps: 5000,
    headroom: 0.3,
  });
  expect(mix.entries.map((e) => [e.key, e.routerBasis, e.routerUs])).toEqual([
    ['edge', 'curve', 23],
    ['reencrypt', 'curve', 40],
    ['passthrough', 'measured', 27.4],
  ]);
  // 3000 × 23 µs + 1500 × 40 µs + 500 × 27.4 µs = 0.1427 busy cores, plus 0.2 fixed once, ÷ 0.7.
  expect(mix.router.fixedCores).toBe(0.2);
  expect(mix.router.exactCores).toBeCloseTo((0.1427 + 0.2) / 0.7, 4);
  expect(mix.entries.reduce((a, e) => a + e.routerCoreShare, 0)).toBeLessThan(1);
});

test("the router's shape: at least the fewest pods, one thread per core a pod needs, up to threadCount", () => {
  expect(routerShape(1, OPENSHIFT_ROUTER)).toEqual({ replicas: 2, threads: 1, cores: 2 });
  expect(routerShape(8, OPENSHIFT_ROUTER)).toEqual({ replicas: 2, threads: 4, cores: 8 });
  expect(routerShape(9, OPENSHIFT_ROUTER)).toEqual({ replicas: 3, threads: 3, cores: 9 });
  expect(routerShape(null, OPENSHIFT_ROUTER)).toBeNull();
});

test("a run with one connection mode: an entry's termination takes the run's cell", () => {
  const closeOnly = { ...results, cells: results.cells.filter((c) => c.name.includes(':close')) };
  const mix = sizeMix(closeOnly, parseMix(['edge=50', 'http=50']), { tps: 5000, headroom: 0.3 });
  expect(mix.entries.map((e) => e.cell)).toEqual(['edge:1k:close:full', 'http:1k:close']);
});

test('a mix that covers part of the traffic sizes that part and says so', () => {
  const mix = size('edge=40');
  expect(mix.coveredPercent).toBe(40);
  expect(mix.entries[0].tps).toBe(2000);
});

test('a run without the service’s cost (a cluster without --prometheus): no pods, and the limit says why', () => {
  const unmeasured = {
    ...results,
    cells: results.cells.map((c) => ({ ...c, cost: { ...c.cost, router: null, service: null } })),
  };
  const mix = sizeMix(unmeasured, parseMix(['edge=100']), { tps: 5000, headroom: 0.3 });
  expect(mix.router).toMatchObject({ cores: null });
  expect(mix.service.pods).toBeNull();
  expect(mix.limit.role).toBeNull();
  expect(mix.limit.why).toMatch(/without --prometheus/);
  // One role measured is not enough to name the limit.
  const routerOnly = {
    ...results,
    cells: results.cells.map((c) => ({ ...c, cost: { ...c.cost, service: null } })),
  };
  expect(sizeMix(routerOnly, parseMix(['edge=100']), { tps: 5000, headroom: 0.3 }).limit.role).toBeNull();
});

test.each([
  ['edge=60,reencrypt=50', /--mix: the shares add up to 110 %, over 100 %/],
  ['edgy=60', /--mix: unknown termination "edgy" in edgy=60 \(one of http, edge, passthrough, reencrypt\)/],
  ['edge:8k=60', /--mix: edge:8k matches no cell of this run \(it has http:1k:keepalive, /],
  ['edge=sixty', /--mix: "edge=sixty" is not CELL=PERCENT/],
  ['edge=50,edge=20', /--mix: edge is given twice/],
  ['edge=0,reencrypt=50', /--mix: edge=0: a share of 0 % sizes nothing/],
])('%s is refused with exit 2, naming it', (text, message) => {
  let err;
  try {
    size(text);
  } catch (e) {
    err = e;
  }
  expect(err).toMatchObject({ name: 'UsageError', exitCode: 2, message: expect.stringMatching(message) });
});
