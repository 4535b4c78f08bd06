'use strict';
// Two runs (or two pools of runs) compared cell by cell: each figure's change from A to B with its
// 95 % interval (./statistics.js), a verdict, the samples a 5 % change would need; and every
// condition that differs between the runs, since those are what is being compared.
const { AXES } = require('../../k6/lib/cells');
const { relativeShift, samplesToDetect, shiftVerdict } = require('./statistics');
const { spread } = require('./cost');

const routerSamples = (c) => c.cost?.router?.perRequestUs?.samples;
const generatorSamples = (c) => c.cost?.[c.generator?.tool]?.perRequestUs?.samples;

/**
 * The router's µs per request in units of the generator's, sample by sample. A slow spell of a
 * shared machine slows both alike, so the ratio holds where the raw figures drift between runs.
 */
function perGenerator(c) {
  const [router, generator] = [routerSamples(c), generatorSamples(c)];
  if (!router?.length || router.length !== generator?.length) return null;
  return router.map((r, i) => (r > 0 && generator[i] > 0 ? r / generator[i] : 0));
}

/** The figures compared, each with where its per-sample values live and which way is better. */
const FIGURES = [
  { key: 'routerUs', label: 'router µs/req', better: 'lower', of: routerSamples },
  { key: 'rps', label: 'req/s', better: 'higher', of: (c) => c.rpsPerSample },
  { key: 'p99', label: 'p99 ms', better: 'lower', of: (c) => c.p99PerSample },
  { key: 'generatorUs', label: 'generator µs/req', better: 'lower', of: generatorSamples },
  { key: 'routerPerGenerator', label: 'router ÷ generator', better: 'lower', of: perGenerator },
];

/**
 * Which router a run measured, in words: the real router's branch, Envoy under the Gateway API, or
 * the template router; null for a cluster (its router is the cluster's).
 */
function routerLabel(doc) {
  const router = doc.environment.router;
  if (!router) return null;
  if (router.openshiftRouter) return `openshift-router ${router.openshiftRouter} (Routes)`;
  if (router.envoy) return `Envoy ${router.envoy} (Gateway API)`;
  return `${router.kind || 'template'} router (Routes)`;
}

/** The run-wide conditions a comparison names when they differ: [label, pick(doc)]. */
const RUN_CONDITIONS = [
  ['router', routerLabel],
  ['HAProxy', (d) => d.environment.haproxy],
  ['its OpenSSL', (d) => d.environment.haproxyOpenssl],
  ['router threads', (d) => d.environment.router?.threads ?? null],
  ['SNI hop', (d) => d.environment.router?.sniHop ?? null],
  ['router key', (d) => d.environment.router?.key ?? null],
  ['cores', (d) => d.environment.cores],
  ['k6', (d) => d.environment.k6],
  ['OpenShift release (TLS profile)', (d) => d.environment.openshiftRelease],
  ['target', (d) => d.environment.target],
  ['samples of', (d) => `${d.options.samples} × ${d.options.durationSeconds} s`],
];

/**
 * A cell's own conditions, which must match for its figures to compare: [label, pick(cell)]. The
 * generator, and each axis declared with a `condition` (k6/lib/axes.js: the TLS sessions).
 */
const CELL_CONDITIONS = [
  ['tool', (c) => c.generator?.tool ?? null],
  ...AXES.filter((axis) => axis.condition).map((axis) => [axis.condition, (c) => c[axis.key] ?? null]),
];

/** [{ name, a, b }] for each condition that differs. */
function differing(conditions, a, b) {
  return conditions
    .map(([name, pick]) => ({ name, a: pick(a) ?? null, b: pick(b) ?? null }))
    .filter((c) => JSON.stringify(c.a) !== JSON.stringify(c.b));
}

/** The verdict in the figure's own terms: better, worse, or why there is none. */
function verdictOf(shift, better) {
  const direction = shiftVerdict(shift);
  if (direction === 'higher') return better === 'higher' ? 'better' : 'worse';
  if (direction === 'lower') return better === 'lower' ? 'better' : 'worse';
  return direction;
}

/** One figure of one cell compared: null when either run lacks its per-sample values. */
function compareFigure(figure, cellA, cellB) {
  const a = (figure.of(cellA) || []).filter((v) => v > 0);
  const b = (figure.of(cellB) || []).filter((v) => v > 0);
  if (!a.length || !b.length) return null;
  const shift = relativeShift(a, b);
  return {
    figure: figure.key,
    label: figure.label,
    better: figure.better,
    a: a,
    b: b,
    // Each side's own figure, set side by side with the change.
    medianA: spread(a).median,
    medianB: spread(b).median,
    ...shift,
    verdict: verdictOf(shift, figure.better),
    samplesFor5Pct: samplesToDetect(a, b, 0.05),
  };
}

/** Notes on a cell pair: a busy host, a figure one run lacks, too few samples for an interval. */
function cellNotes(cellA, cellB, figures) {
  const notes = [];
  for (const f of FIGURES.filter((f) => !figures.some((c) => c.figure === f.key))) {
    const lacking = [
      ['A', cellA],
      ['B', cellB],
    ]
      .filter(([, c]) => !(f.of(c) || []).length)
      .map(([run]) => run);
    notes.push(`${f.label}: not compared, run ${lacking.join(' and ')} recorded no per-sample figures`);
  }
  for (const [run, cell] of [
    ['A', cellA],
    ['B', cellB],
  ]) {
    // The verdicts' own judgement: other work on the host during the cell, not the lab's.
    if (cell.limitedBy?.hostBusy) notes.push(`host busy with other work in run ${run}`);
  }
  // k6's or wrk's own cost does not depend on the router: when it moves the same way, the machine did.
  const [router, generator] = ['routerUs', 'generatorUs'].map((key) => figures.find((f) => f.figure === key));
  if (
    router &&
    generator &&
    ['better', 'worse'].includes(router.verdict) &&
    generator.verdict === router.verdict
  ) {
    const pct = `${generator.change > 0 ? '+' : ''}${(generator.change * 100).toFixed(1)} %`;
    notes.push(
      `the generator's own µs/req moved the same way (${pct}): part of the router's change may be the machine's`,
    );
  }
  if (figures.some((f) => f.verdict === 'too few samples'))
    notes.push('no interval: 4 samples a side at least (--samples 4)');
  return notes;
}

/** What runs pooled into one side must share: every run-wide condition, and the sample length. */
const POOL_CONDITIONS = [
  ...RUN_CONDITIONS.filter(([name]) => name !== 'samples of'),
  ['sample length', (d) => `${d.options.durationSeconds} s`],
];

/** A cell of several runs as one: each per-sample figure's samples, in run order. */
function pooledCell(cells) {
  const concat = (pick) => cells.flatMap((c) => pick(c) || []);
  const [first] = cells;
  const tool = first.generator?.tool;
  return {
    ...first,
    rpsPerSample: concat((c) => c.rpsPerSample),
    p99PerSample: concat((c) => c.p99PerSample),
    cost: {
      router: { perRequestUs: { samples: concat((c) => c.cost?.router?.perRequestUs?.samples) } },
      ...(tool
        ? { [tool]: { perRequestUs: { samples: concat((c) => c.cost?.[tool]?.perRequestUs?.samples) } } }
        : {}),
    },
    limitedBy: { ...first.limitedBy, hostBusy: cells.some((c) => c.limitedBy?.hostBusy) },
  };
}

/**
 * Several runs of the same conditions as one side ('A1+A2'), for runs taken in turn with another
 * side's (A B A B) so that a machine's drift falls on both: each cell they all have, its samples
 * pooled. Throws naming a run-wide or cell condition that differs between them.
 */
function poolRuns(docs) {
  if (docs.length === 1) return docs[0];
  const [first, ...rest] = docs;
  const id = docs.map((d) => d.id).join('+');
  for (const doc of rest) {
    const [d] = differing(POOL_CONDITIONS, first, doc);
    if (d) throw new Error(`runs ${first.id} and ${doc.id} cannot be pooled: ${d.name} ${d.a} vs ${d.b}`);
  }
  const names = first.cells
    .map((c) => c.name)
    .filter((n) => rest.every((d) => d.cells.some((c) => c.name === n)));
  const cells = names.map((name) => {
    const each = docs.map((d) => d.cells.find((c) => c.name === name));
    const [d] = each.slice(1).flatMap((c) => differing(CELL_CONDITIONS, each[0], c));
    if (d) throw new Error(`runs of ${id} cannot be pooled: ${name} has ${d.name} ${d.a} vs ${d.b}`);
    return pooledCell(each);
  });
  const samples = docs.reduce((sum, d) => sum + d.options.samples, 0);
  return { ...first, id, options: { ...first.options, samples }, cells };
}

/**
 * Compares run `a` with run `b` (results documents). Cells whose own conditions differ are
 * refused unless `allowDifferentCells`. Returns { conditions, cells, onlyInA, onlyInB }; throws
 * when no cell is in both.
 */
function compareRuns(a, b, { allowDifferentCells = false } = {}) {
  const inB = new Map(b.cells.map((c) => [c.name, c]));
  const common = a.cells.filter((c) => inB.has(c.name));
  if (!common.length) {
    throw new Error(
      `runs ${a.id} and ${b.id} have no cell in common (A: ${a.cells.map((c) => c.name).join(', ') || 'none'}; B: ${b.cells.map((c) => c.name).join(', ') || 'none'})`,
    );
  }
  const cells = common.map((cellA) => {
    const cellB = inB.get(cellA.name);
    const differs = differing(CELL_CONDITIONS, cellA, cellB);
    if (differs.length && !allowDifferentCells) {
      return {
        name: cellA.name,
        refused: differs.map((d) => `${d.name} ${d.a} vs ${d.b}`).join(', '),
        figures: [],
        notes: [],
      };
    }
    const figures = FIGURES.map((f) => compareFigure(f, cellA, cellB)).filter(Boolean);
    return { name: cellA.name, differs, figures, notes: cellNotes(cellA, cellB, figures) };
  });
  return {
    a: { id: a.id, router: routerLabel(a) },
    b: { id: b.id, router: routerLabel(b) },
    conditions: differing(RUN_CONDITIONS, a, b),
    cells,
    onlyInA: a.cells.filter((c) => !inB.has(c.name)).map((c) => c.name),
    onlyInB: b.cells.filter((c) => !a.cells.some((x) => x.name === c.name)).map((c) => c.name),
  };
}

module.exports = { FIGURES, compareRuns, poolRuns, verdictOf };
