'use strict';
// Two made-up runs compared: the conditions that differ are listed, a cell made by another tool is
// refused unless asked, a figure one run lacks is said, and runs with no common cell are refused.
const { compareRuns } = require('../../lib/results-model/comparison');

function run(id, { haproxy = '3.0.11', threads = 2, cells }) {
  return {
    id,
    options: { samples: 4, durationSeconds: 5 },
    environment: {
      haproxy,
      haproxyOpenssl: 'OpenSSL 3.0',
      cores: 2,
      k6: '1.8.1',
      router: { threads, kind: 'template' },
    },
    cells,
  };
}
function cell(
  name,
  { tool = 'k6', router = [50, 51, 49, 50], rps = [1000, 1010, 990, 1000], p99 = [10, 11, 10, 9] } = {},
) {
  return {
    name,
    generator: { tool },
    rpsPerSample: rps,
    p99PerSample: p99,
    cost: {
      router: { perRequestUs: { samples: router } },
      [tool]: { perRequestUs: { samples: [120, 121, 119, 120] } },
    },
  };
}

test('the conditions that differ are listed, and a clear change gets its verdict per figure', () => {
  const a = run('A', { cells: [cell('http:1k:keepalive')] });
  const b = run('B', {
    haproxy: '3.2.9',
    threads: 1,
    cells: [cell('http:1k:keepalive', { router: [60, 61, 59, 60] })],
  });
  const result = compareRuns(a, b);
  expect(result.conditions).toEqual([
    { name: 'HAProxy', a: '3.0.11', b: '3.2.9' },
    { name: 'router threads', a: 2, b: 1 },
  ]);
  const router = result.cells[0].figures.find((f) => f.figure === 'routerUs');
  expect(router.change).toBeCloseTo(0.2, 2);
  expect(router.verdict).toBe('worse');
  expect(result.cells[0].figures.find((f) => f.figure === 'rps').verdict).toBe('no difference detectable');
  // The router's cost in units of the generator's, sample by sample: the generator held still.
  const ratio = result.cells[0].figures.find((f) => f.figure === 'routerPerGenerator');
  expect(ratio.a[0]).toBeCloseTo(50 / 120, 6);
  expect(ratio).toMatchObject({ label: 'router ÷ generator', verdict: 'worse' });
  expect(ratio.change).toBeCloseTo(0.2, 2);
});

test('a cell made by another tool is refused unless asked', () => {
  const a = run('A', { cells: [cell('edge:1k:close:resumed', { tool: 'wrk' })] });
  const b = run('B', { cells: [cell('edge:1k:close:resumed', { tool: 'k6' })] });
  expect(compareRuns(a, b).cells[0]).toMatchObject({ refused: 'tool wrk vs k6', figures: [] });
  expect(compareRuns(a, b, { allowDifferentCells: true }).cells[0].figures.length).toBeGreaterThan(0);
});

test('a figure one run lacks is said, and runs without a common cell are refused', () => {
  const old = cell('http:1k:keepalive');
  delete old.p99PerSample;
  const result = compareRuns(run('A', { cells: [old] }), run('B', { cells: [cell('http:1k:keepalive')] }));
  expect(result.cells[0].notes).toContain('p99 ms: not compared, run A recorded no per-sample figures');
  expect(() => compareRuns(run('A', { cells: [cell('x')] }), run('B', { cells: [cell('y')] }))).toThrow(
    /runs A and B have no cell in common \(A: x; B: y\)/,
  );
});

test('runs of the same conditions pool into one side; runs that differ are refused, naming how', () => {
  const { poolRuns } = require('../../lib/results-model/comparison');
  const a1 = run('A1', { cells: [cell('http:1k:keepalive'), cell('edge:1k:keepalive')] });
  const a2 = run('A2', { cells: [cell('http:1k:keepalive', { router: [52, 53, 51, 52] })] });
  const pooled = poolRuns([a1, a2]);
  expect(pooled.id).toBe('A1+A2');
  // Only the cells every run has; each figure's samples in run order.
  expect(pooled.cells.map((c) => c.name)).toEqual(['http:1k:keepalive']);
  expect(pooled.cells[0].cost.router.perRequestUs.samples).toEqual([50, 51, 49, 50, 52, 53, 51, 52]);
  expect(pooled.cells[0].cost.k6.perRequestUs.samples).toHaveLength(8);
  expect(pooled.options.samples).toBe(8);
  const b = run('B', { cells: [cell('http:1k:keepalive', { router: [60, 61, 59, 60] })] });
  const figure = compareRuns(pooled, b).cells[0].figures.find((f) => f.figure === 'routerUs');
  expect(figure.a).toHaveLength(8);
  expect(() => poolRuns([a1, run('A3', { haproxy: '3.2.23', cells: a1.cells })])).toThrow(
    'runs A1 and A3 cannot be pooled: HAProxy 3.0.11 vs 3.2.23',
  );
  const byWrk = run('A4', { cells: [cell('http:1k:keepalive', { tool: 'wrk' })] });
  expect(() => poolRuns([a1, byWrk])).toThrow('http:1k:keepalive has tool k6 vs wrk');
});

test("a generator whose own cost moved with the router's is noted: the machine may have moved", () => {
  const slower = (name, k6) => {
    const c = cell(name, { router: [60, 61, 59, 60] });
    c.cost.k6.perRequestUs.samples = k6;
    return c;
  };
  const a = run('A', { cells: [cell('http:1k:keepalive'), cell('edge:1k:keepalive')] });
  const b = run('B', {
    cells: [
      slower('http:1k:keepalive', [144, 145, 143, 144]),
      slower('edge:1k:keepalive', [120, 121, 119, 120]),
    ],
  });
  const [moved, steady] = compareRuns(a, b).cells;
  expect(moved.notes).toEqual([
    "the generator's own µs/req moved the same way (+20.0 %): part of the router's change may be the machine's",
  ]);
  expect(steady.notes).toEqual([]);
});

test('Routes against the Gateway: each side named by its router, its own median beside the change', () => {
  const { comparisonMarkdown } = require('../../lib/report/comparison');
  const a = run('A', { cells: [cell('edge:1k:keepalive')] });
  const b = run('B', { haproxy: null, cells: [cell('edge:1k:keepalive', { router: [100, 102, 98, 100] })] });
  b.environment.router = { threads: 2, kind: 'gateway', envoy: '1.40.0', istio: 'v0' };
  const result = compareRuns(a, b);
  expect(result.conditions.slice(0, 2)).toEqual([
    { name: 'router', a: 'template router (Routes)', b: 'Envoy 1.40.0 (Gateway API)' },
    { name: 'HAProxy', a: '3.0.11', b: null },
  ]);
  const router = result.cells[0].figures.find((f) => f.figure === 'routerUs');
  expect([router.medianA, router.medianB]).toEqual([50, 100]);
  const md = comparisonMarkdown([result]);
  expect(md).toContain(
    '# Run B (B) against A (A): Envoy 1.40.0 (Gateway API) against template router (Routes)',
  );
  expect(md).toContain('| edge:1k:keepalive | router µs/req | 50.0 | 100 | +100.0 % |');
});
