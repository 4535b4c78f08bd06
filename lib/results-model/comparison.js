'use strict';
// Two runs compared cell by cell: for each figure, the relative change from run A to run B with
// its 95 % interval (./statistics.js), a verdict, and the samples a 5 % change would need; and
// every condition that differs between the runs, since those are what is being compared.
const { relativeShift, samplesToDetect, shiftVerdict } = require('./statistics');

/** The figures compared, each with where its per-sample values live and which way is better. */
const FIGURES = [
  {
    key: 'routerUs',
    label: 'router µs/req',
    better: 'lower',
    of: (c) => c.cost?.router?.perRequestUs?.samples,
  },
  { key: 'rps', label: 'req/s', better: 'higher', of: (c) => c.rpsPerSample },
  { key: 'p99', label: 'p99 ms', better: 'lower', of: (c) => c.p99PerSample },
  {
    key: 'generatorUs',
    label: 'generator µs/req',
    better: 'lower',
    of: (c) => c.cost?.[c.generator?.tool]?.perRequestUs?.samples,
  },
];

/** The run-wide conditions a comparison names when they differ: [label, pick(doc)]. */
const RUN_CONDITIONS = [
  ['HAProxy', (d) => d.environment.haproxy],
  ['its OpenSSL', (d) => d.environment.haproxyOpenssl],
  [
    'router',
    (d) =>
      d.environment.router
        ? d.environment.router.openshiftRouter || d.environment.router.kind || 'template'
        : null,
  ],
  ['router threads', (d) => d.environment.router?.threads ?? null],
  ['router key', (d) => d.environment.router?.key ?? null],
  ['cores', (d) => d.environment.cores],
  ['k6', (d) => d.environment.k6],
  ['OpenShift release (TLS profile)', (d) => d.environment.openshiftRelease],
  ['target', (d) => d.environment.target],
  ['samples of', (d) => `${d.options.samples} × ${d.options.durationSeconds} s`],
];

/** A cell's own conditions, which must match for its figures to compare: [label, pick(cell)]. */
const CELL_CONDITIONS = [
  ['tool', (c) => c.generator?.tool ?? null],
  ['TLS sessions', (c) => c.tlsSession ?? null],
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
  if (figures.some((f) => f.verdict === 'too few samples'))
    notes.push('no interval: 4 samples a side at least (--samples 4)');
  return notes;
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
    a: { id: a.id },
    b: { id: b.id },
    conditions: differing(RUN_CONDITIONS, a, b),
    cells,
    onlyInA: a.cells.filter((c) => !inB.has(c.name)).map((c) => c.name),
    onlyInB: b.cells.filter((c) => !a.cells.some((x) => x.name === c.name)).map((c) => c.name),
  };
}

module.exports = { FIGURES, compareRuns, verdictOf };
