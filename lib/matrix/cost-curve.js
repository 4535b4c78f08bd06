'use strict';
// --cost-curve: a keep-alive cell driven again by haload, flat out, held to fractions of that rate
// and to the run's target (haload -R), the router's CPU sampled each time; the fit
// (lib/results-model/cost-curve.js) says what it is made of: fixed cores, and µs per request.
const { runHaload } = require('../load/haload');
const { haloadTarget, NO_HALOAD } = require('./cross-check');
const { fitCostCurve } = require('../results-model/cost-curve');

/** The offered rates, as fractions of what haload got flat out (the flat-out run is the last point). */
const FRACTIONS = [0.25, 0.5, 0.75];

/**
 * haload held to the rate the cell's own generator drove, `samples` times. -R overshoots by a few
 * per cent, and the router's cost per request falls as the rate rises: a first run finds the
 * overshoot (a curve point like the others), each run after it offers the rate corrected by the
 * last one's, so that both generators are compared at one rate.
 */
async function atGeneratorRate(once, rate, samples, report) {
  report(`cost curve: the cell's rate, ${rate} req/s (finding haload's overshoot)`);
  const first = await once(rate);
  const points = [first];
  let offer = first.rps > 0 ? Math.max(1, Math.round((rate * rate) / first.rps)) : rate;
  for (let i = 1; i <= samples; i++) {
    report(`cost curve: the cell's rate, ${rate} req/s (${i}/${samples}, offering ${offer})`);
    const point = await once(offer);
    points.push({ ...point, generatorRate: true });
    if (point.rps > 0) offer = Math.max(1, Math.round((offer * rate) / point.rps));
  }
  return points;
}

/**
 * The cell's cost curve in the matrix `run` (lib/matrix/run.js: its haload, target, options, watched
 * pids, signal and document): { tool, points: [{ offeredRps, rps, routerCores, toolCores, target?,
 * generatorRate? }], ...fit }, or { tool, skipped } where it cannot be measured. The rate the run
 * sizes for (the bank's 5,000) is offered too, its point marked `target`; and the rate the cell's
 * own generator drove (`generatorRps`), once per sample, marked `generatorRate`: the router's cost
 * under both generators at one rate (lib/results-model/generator-efficiency.js).
 * `report(step)` names each run.
 */
async function measureCostCurve(run, cell, { threads, report, generatorRps }) {
  const { haload, target, opts, watch, signal } = run;
  if (cell.connection !== 'keepalive') return null;
  if (!haload) return { tool: 'haload', skipped: NO_HALOAD };
  const targetRps = run.doc.reference.bank.targetTps;
  const where = await haloadTarget(cell, target.routes[cell.termination], target);
  const once = async (rate) => {
    const measured = await runHaload({
      ...where,
      haload,
      protocol: cell.protocol ?? 'h1',
      users: opts.vus,
      threads,
      rate,
      durationSeconds: opts.duration,
      watch: { router: watch.router },
      cpus: target.k6Cpus,
      signal,
    });
    return {
      offeredRps: rate || null,
      rps: Math.round(measured.rps),
      routerCores: measured.routerCpuCores,
      toolCores: measured.cpuCores,
    };
  };
  report('cost curve: flat out');
  const flatOut = await once(0);
  const points = [];
  for (const fraction of FRACTIONS) {
    const rate = Math.max(1, Math.round(flatOut.rps * fraction));
    report(`cost curve: ${rate} req/s`);
    points.push(await once(rate));
  }
  points.push(flatOut);
  if (generatorRps > 0)
    points.push(
      ...(await atGeneratorRate(once, Math.max(1, Math.round(generatorRps)), opts.samples, report)),
    );
  if (targetRps > 0) {
    report(`cost curve: the target, ${targetRps} req/s`);
    points.push({ ...(await once(targetRps)), target: true });
  }
  // The runs at the cell's rate compare generators; fitted, they would weigh the curve toward one rate.
  const fit = fitCostCurve(points.filter((p) => !p.generatorRate));
  if (!fit)
    return { tool: 'haload', skipped: 'the router’s CPU was not measured at two rates or more', points };
  return { tool: 'haload', points, ...fit };
}

module.exports = { measureCostCurve, FRACTIONS };
