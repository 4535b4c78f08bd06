'use strict';
// The router's µs of CPU per request at a Route count: the matrix itself on its reference cells
// (http and edge, 1 KiB, keep-alive), with its verdicts, into a directory of its own.
const fs = require('node:fs');
const { parseMatrixArgs } = require('../matrix/options');
const { runMatrix } = require('../matrix/run');

const REFERENCE_CELLS = ['http:1k:keepalive', 'edge:1k:keepalive'];

/** One cell of a matrix run in route-scale's figures. */
const cellFigures = (cell) => ({
  cell: cell.name,
  routerUs: cell.cost?.router?.perRequestUs ?? null,
  rps: cell.rps,
  p99: cell.p99,
  limitedBy: cell.limitedBy.by,
  limitReason: cell.limitedBy.reasons[0]?.text ?? null,
  hostBusy: cell.limitedBy.hostBusy,
});

/**
 * The reference cells against the running lab of `env`: opts.costSamples samples of
 * opts.costDuration s each; the matrix's results.json goes to `dir`. Resolves { dir, cells }.
 */
async function measureCost({ env, opts, dir, log, signal }) {
  const args = [
    ...['--cells', REFERENCE_CELLS.join(','), '--samples', String(opts.costSamples)],
    ...['--duration', String(opts.costDuration), '--warmup', '1', '--cooldown', '0'],
    ...['--no-report', '--out', dir],
  ];
  // The matrix's progress bar would interleave with route-scale's lines.
  const quiet = fs.createWriteStream('/dev/null');
  try {
    const { results } = await runMatrix(parseMatrixArgs(args, {}), {
      env,
      log: (line) => log(`    ${line}`),
      progressStream: quiet,
      signal,
    });
    return { dir, cells: results.cells.map(cellFigures) };
  } finally {
    quiet.end();
  }
}

module.exports = { measureCost, REFERENCE_CELLS };
