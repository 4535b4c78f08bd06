'use strict';
// What the terminal shows of a run's cells: one line per finished cell, and how an in-cluster
// run's runners added up.
const { reasonTexts } = require('./limits');
const { THRESHOLDS } = require('../results-model/verdicts');
const { pct, rate, spreadText } = require('./format');
const { figureValue } = require('./figures');

const FLAGS = [
  ['generator', 'GENERATOR-BOUND'],
  ['backend', 'BACKEND-BOUND'],
  ['unmeasured', 'NO VERDICT'],
];

/**
 * The router's cost, its own figure whoever limited the cell: "  router 36 µs/req, 27.8k req/s per
 * core". Nothing where it was not measured (a cluster run): the cell's verdict already says so.
 */
function routerCost(cell) {
  const perRequest = figureValue('routerUs', cell);
  if (!perRequest) return '';
  const perCore = cell.capacity ? `, ${rate(figureValue('capacityPerCore', cell))} req/s per core` : '';
  return `  router ${spreadText(perRequest)} µs/req${perCore}`;
}

/**
 * One line: rate, the router's µs per request and capacity per core, p99, errors, and the cell's
 * limitedBy in capitals when it is not the router.
 */
function describeCell(cell) {
  const flags = FLAGS.filter(([role]) => reasonTexts(cell, role).length).map(
    ([role, label]) => `${label}: ${reasonTexts(cell, role)[0]}`,
  );
  if (cell.limitedBy.hostBusy) flags.push('HOST BUSY with other work');
  if (cell.tlsEvidence && cell.tlsEvidence.holds === false) flags.push(`⚠ ${cell.tlsEvidence.text}`);
  if (cell.protocolEvidence?.holds === false) flags.push(`⚠ ${cell.protocolEvidence.text}`);
  if (cell.crossCheck && cell.crossCheck.rps) {
    flags.push(
      `${cell.crossCheck.tool} ${Math.round(cell.crossCheck.rps)} rps${cell.crossCheck.flagged ? ` (over ${THRESHOLDS.crossCheckGap * 100} % apart)` : ''}`,
    );
  }
  const [okRps, p99, errors] = ['okRps', 'p99', 'errorRate'].map((key) => figureValue(key, cell));
  const err = errors ? `${pct(errors)} errors` : 'no errors';
  return `${cell.name.padEnd(28)} ${String(Math.round(okRps)).padStart(7)} ok rps${routerCost(cell)}  p99 ${p99 === null ? '–' : p99.toFixed(1)} ms  ${err}${flags.length ? `  ${flags.join('; ')}` : ''}`;
}

/** How far an offered rate may fall short of the one asked and still count as offered. */
const RATE_TOLERANCE = 0.05;

/**
 * A run at a set rate (--rate): whether the runners together offered it, within RATE_TOLERANCE and
 * without dropped iterations, or that the generator could not, and why. Null without a rate.
 */
function offeredRate(results) {
  const { rate: asked, durationSeconds } = results.options;
  if (!asked) return null;
  const [cell] = results.cells;
  const dropped = cell.generator?.droppedIterations || 0;
  // Requests over the scenario's duration: one per iteration, each started on schedule or dropped.
  // The cell's rps is over the runners' whole time, which also holds the last responses' drain
  // (on a busy node, 100 req/s for 5 s read 92.7).
  const offered = durationSeconds ? Math.round((10 * cell.requests) / durationSeconds) / 10 : cell.rps;
  // Over the rate is no shortfall (k6 catching up after a slow start).
  if (dropped === 0 && offered >= (1 - RATE_TOLERANCE) * asked) {
    return `offered ${offered} of the ${asked} req/s asked`;
  }
  const why = dropped
    ? `${dropped} iterations dropped, ${offered} req/s offered`
    : `${offered} req/s offered`;
  return `the generator could not offer ${asked} req/s: ${why} (more runners, --runner-cpu or --vus)`;
}

/** An in-cluster run (one cell, concurrent runners): the sum of the runners, the rate asked, the cell's line. */
function describeMerged(results) {
  const [cell] = results.cells;
  return [
    `merged ${cell.samples} runners, cell ${cell.name}, ${cell.seconds} s: ` +
      `${cell.rps} req/s = ${cell.rpsPerSample.join(' + ')}`,
    offeredRate(results),
    describeCell(cell),
  ]
    .filter(Boolean)
    .join('\n');
}

module.exports = { describeCell, describeMerged, offeredRate, RATE_TOLERANCE };
