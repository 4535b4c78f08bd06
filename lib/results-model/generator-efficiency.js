'use strict';
// Does the router's figure depend on who drives it? Per cross-checked cell: each generator's own
// µs of CPU per request, the router's under each, and their shift with its 95 % interval against
// the A/A bound; beyond it, why, from the runs' own evidence (rates, the generators' CPU). Pure.
const { relativeShift } = require('./statistics');
const { spread } = require('./cost');
const { costAt, fittedCurve } = require('./cost-curve');

// Runs of one binary agree within ±5 % (router ÷ generator, docs/figures.md): a shift beyond counts.
const AA_BOUND = 0.05;
// Rates this far apart make the router's fixed work per second a different share of a request.
const RATE_APART = 0.1;

/** One generator's figures in a cell: its tool, req/s, own µs per request and the router's. */
function generatorFigures(cell) {
  const tool = cell.generator?.tool ?? 'k6';
  return {
    tool,
    rps: cell.okRps ?? null,
    cores: cell.generator?.cpuCores ?? null,
    ownUs: cell.cost?.[tool]?.perRequestUs ?? null,
    routerUs: cell.cost?.router?.perRequestUs ?? null,
  };
}

/** The cross-check tool's figures, in the same shape. */
function toolFigures(cell) {
  const x = cell.crossCheck;
  return {
    tool: x.tool,
    run: 'cross-check',
    rps: x.rps ?? null,
    cores: x.cpuCores ?? null,
    ownUs: cell.cost?.[x.tool]?.perRequestUs ?? null,
    routerUs: x.routerUs ?? (x.routerPerRequestUs ? { median: x.routerPerRequestUs } : null),
  };
}

const samplesOf = (us) => (us?.samples ?? (us ? [us.median] : [])).filter((v) => v > 0);

/**
 * agrees: the whole interval inside ±AA_BOUND; depends: the whole interval beyond it; undecided:
 * the interval spans the bound; too few samples: no interval (4 runs a side at least).
 */
function verdictOf(shift, bound = AA_BOUND) {
  if (shift.low === null) return 'too few samples';
  if (shift.low >= -bound && shift.high <= bound) return 'agrees';
  if (shift.low > bound || shift.high < -bound) return 'depends';
  return 'undecided';
}

/** Why the router's figure moved with the generator, from what the runs recorded. */
function reasonsOf(cell, gen, tool) {
  const why = [];
  const ratio = gen.rps > 0 && tool.rps > 0 ? tool.rps / gen.rps : null;
  if (ratio !== null && Math.abs(ratio - 1) >= RATE_APART) {
    const curve = fittedCurve(cell);
    const predicted = curve && [costAt(curve, gen.rps), costAt(curve, tool.rps)];
    why.push(
      `${tool.tool} drove ${ratio.toFixed(2)}× ${gen.tool}'s rate: the router's fixed work per second ` +
        'is a different share of each request' +
        (predicted ? ` (its cost curve: ${predicted[0]} → ${predicted[1]} µs at those rates)` : ''),
    );
  }
  if (gen.cores !== null && tool.cores !== null) {
    why.push(
      // A fact, not a cause: pinned apart from the router the shift remained (docs/figures.md).
      `${gen.tool} used ${gen.cores.toFixed(2)} cores beside the router, ${tool.tool} ${tool.cores.toFixed(2)}`,
    );
  }
  return why;
}

/** haload's cost-curve `points` (one or more runs) in a generator's shape, named `run`; null without one. */
function curveRunFigures(points, run) {
  const usable = points.filter((p) => p.rps > 0);
  if (!usable.length) return null;
  const median = (values) => spread(values)?.median ?? null;
  const perRequest = (key) => {
    const samples = usable.filter((p) => typeof p[key] === 'number').map((p) => (p[key] / p.rps) * 1e6);
    return samples.length ? { ...spread(samples), samples } : null;
  };
  return {
    tool: 'haload',
    run,
    rps: median(usable.map((p) => p.rps)),
    cores: median(usable.map((p) => p.toolCores)),
    ownUs: perRequest('toolCores'),
    routerUs: perRequest('routerCores'),
  };
}

/** The cost curve's flat-out run (one run), or null. */
const flatOutFigures = (cell) =>
  curveRunFigures(
    (cell.costCurve?.points ?? []).filter((p) => p.offeredRps === null),
    'cost curve, flat out',
  );

/**
 * The cost curve's runs at the cell's own rate (haload held to it once per sample), or null: the
 * router under both generators at one rate, so the rate explains no shift. Only the runs that got
 * the rate (within RATE_APART) count: a router short of it compares nothing.
 */
function sameRateFigures(cell, gen) {
  const near = (rps) => gen.rps > 0 && Math.abs(rps / gen.rps - 1) < RATE_APART;
  const points = (cell.costCurve?.points ?? []).filter((p) => p.generatorRate && near(p.rps));
  return curveRunFigures(points, `cost curve, at ${gen.tool}'s rate`);
}

/** Another generator against the cell's own: the router's shift under it, its verdict and why. */
function against(cell, gen, other) {
  const [a, b] = [samplesOf(gen.routerUs), samplesOf(other.routerUs)];
  if (!a.length || !b.length) return { ...other, shift: null, verdict: null, why: [] };
  const shift = relativeShift(a, b);
  const verdict = verdictOf(shift);
  const beyond = verdict === 'depends' || (verdict !== 'agrees' && Math.abs(shift.change) > AA_BOUND);
  return { ...other, shift, verdict, why: beyond ? reasonsOf(cell, gen, other) : [] };
}

/**
 * The cell's generators side by side: { cell, generators: [the cell's own, then each other one
 * with { shift: { change, low, high } (the router's µs under it against under the cell's
 * generator) | null, verdict, why: [...] }] }. The others: the cross-check's tool, haload's
 * flat-out run of the cost curve, and its runs at the cell's rate. Null for a cell no second
 * generator drove.
 */
function generatorEfficiency(cell) {
  const checked =
    cell.crossCheck && !cell.crossCheck.skipped && cell.crossCheck.rps ? toolFigures(cell) : null;
  const gen = generatorFigures(cell);
  const others = [checked, flatOutFigures(cell), sameRateFigures(cell, gen)].filter(Boolean);
  if (!others.length) return null;
  return { cell: cell.name, generators: [gen, ...others.map((other) => against(cell, gen, other))] };
}

module.exports = { AA_BOUND, generatorEfficiency, verdictOf };
