'use strict';
// Which cells a run measures, in order, from the options: the default dimensions, --sizes, and
// the --cells filter (with '*' wildcards). Pure.
const { TERMINATIONS, CONNECTIONS, parseSize, sizeLabel, cellName } = require('../../k6/lib/cells');
const { UsageError } = require('../core/settings');

function allCells(sizes) {
  const cells = [];
  for (const termination of TERMINATIONS) {
    for (const size of sizes) {
      for (const connection of CONNECTIONS) {
        const pageSize = parseSize(size);
        cells.push({ name: cellName(termination, pageSize, connection), termination, pageSize, connection });
      }
    }
  }
  return cells;
}

/**
 * A --cells pattern such as 'http:*:close' → a predicate; throws UsageError when malformed.
 * `sizes` are what '*' stands for in the size part.
 */
function cellMatcher(pattern, sizes = []) {
  const parts = pattern.split(':');
  if (parts.length !== 3) {
    throw new UsageError(`--cells: '${pattern}' must be termination:size:connection, e.g. edge:1k:keepalive`);
  }
  const [t, s, c] = parts;
  if (t !== '*' && !TERMINATIONS.includes(t)) {
    throw new UsageError(`--cells: '${pattern}': termination must be * or one of ${TERMINATIONS.join(', ')}`);
  }
  if (c !== '*' && !CONNECTIONS.includes(c)) {
    throw new UsageError(`--cells: '${pattern}': connection must be * or one of ${CONNECTIONS.join(', ')}`);
  }
  let bytes = null;
  if (s !== '*') {
    try {
      bytes = parseSize(s);
    } catch (err) {
      throw new UsageError(`--cells: '${pattern}': ${err.message}`);
    }
  }
  // A '*' size means the run's sizes (--sizes), not every size some other pattern names.
  const sizeBytes = sizes.map(parseSize);
  return (cell) =>
    (t === '*' || cell.termination === t) &&
    (bytes === null ? sizeBytes.includes(cell.pageSize) : cell.pageSize === bytes) &&
    (c === '*' || cell.connection === c);
}

/**
 * The cells to run. Sizes named in --cells join the run even if --sizes leaves them out, so
 * `--cells edge:64k:keepalive` works on its own.
 */
function planCells({ sizes, cells: patterns }) {
  if (!patterns) return allCells(sizes);
  const matchers = patterns.map((p) => cellMatcher(p, sizes));
  const extraSizes = patterns
    .map((p) => p.split(':')[1])
    .filter((s) => s !== '*')
    .map((s) => sizeLabel(parseSize(s)));
  const universe = allCells([...new Set([...sizes, ...extraSizes])]);
  const chosen = universe.filter((cell) => matchers.some((match) => match(cell)));
  if (!chosen.length) throw new UsageError(`--cells '${patterns.join(',')}' selects no cell`);
  return chosen;
}

/** Rough seconds a run takes, for the ETA before the first cell has finished. */
function estimateSeconds(cellCount, opts, startupSeconds = 1) {
  const perCell =
    (opts.warmup ? opts.warmup + startupSeconds : 0) +
    opts.samples * (opts.duration + startupSeconds) +
    opts.cooldown +
    (opts.crossCheck ? opts.duration + 0.5 : 0);
  return cellCount * perCell;
}

module.exports = { allCells, cellMatcher, planCells, estimateSeconds };
