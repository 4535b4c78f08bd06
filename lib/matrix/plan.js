'use strict';
// Which cells a run measures, in order, from the options: each axis's values (k6/lib/axes.js; an
// option such as --sizes or --tls-session chooses them) and the --cells filter ('*' wildcards).
// `cells` is the vocabulary (k6/lib/cells.js CELLS); a test may pass another. Pure.
const { CELLS } = require('../../k6/lib/cells');
const { UsageError } = require('../core/settings');

/** The name tokens a run plans for an axis: its option's ('1k', 'full'), else the declaration's. */
const chosenTokens = (axis, opts) => opts[axis.option] ?? axis.choices ?? axis.values;
const valueOf = (axis, token) => (axis.values ? token : axis.read(token));
const runValues = (axis, opts) => chosenTokens(axis, opts).map((token) => valueOf(axis, token));

/** Each combination of valuesOf(axis), the first axis varying slowest; an axis a cell lacks is null. */
function product(cells, valuesOf) {
  let partial = [{}];
  for (const axis of cells.axes) {
    partial = partial.flatMap((cell) =>
      cells.applies(axis, cell)
        ? valuesOf(axis).map((value) => ({ ...cell, [axis.key]: value }))
        : [{ ...cell, [axis.key]: null }],
    );
  }
  return partial.map((cell) => ({ name: cells.cellName(cell), ...cell }));
}

/** Every cell of the run's values of each axis (--sizes, --tls-session, …). */
function allCells(opts = {}, cells = CELLS) {
  return product(cells, (axis) => runValues(axis, opts));
}

/**
 * A --cells pattern → { [axis key]: token, '*' or undefined (an optional part left out) }; throws
 * UsageError when malformed. Optional parts are told apart by their values, in the axes' order.
 */
function parsePattern(pattern, cells = CELLS) {
  const tokens = pattern.split(':');
  const { axes, required, optional } = cells;
  if (tokens.length < required.length || tokens.length > axes.length) {
    throw new UsageError(
      `--cells: '${pattern}' must be ${cells.shape}, e.g. ${cells.patternExamples.join(' or ')}`,
    );
  }
  const refuse = (why) => new UsageError(`--cells: '${pattern}': ${why}`);
  const oneOf = (axis) => `${axis.part} must be * or one of ${axis.values.join(', ')}`;
  const parts = {};
  let next = 0;
  for (const token of tokens.slice(required.length)) {
    const at = optional.findIndex(
      (axis, i) => i >= next && (token === '*' || !axis.values || axis.values.includes(token)),
    );
    if (at < 0) throw refuse(optional.slice(next).map(oneOf).join('; or '));
    parts[optional[at].key] = token;
    next = at + 1;
  }
  required.forEach((axis, i) => (parts[axis.key] = tokens[i]));
  // The closed parts first, in order; then the open ones (page size), whose reading has its message.
  for (const axis of required.filter((a) => a.values)) {
    if (parts[axis.key] !== '*' && !axis.values.includes(parts[axis.key])) throw refuse(oneOf(axis));
  }
  for (const axis of axes.filter((a) => !a.values && parts[a.key] !== undefined && parts[a.key] !== '*')) {
    try {
      axis.read(parts[axis.key]);
    } catch (err) {
      throw refuse(err.message);
    }
  }
  // A value named for an axis that no cell the pattern selects has (h2 on http): a mistake.
  const named = optional.filter((axis) => parts[axis.key] !== undefined && parts[axis.key] !== '*');
  const selectable = product(cells, (axis) => {
    const token = parts[axis.key];
    if (!axis.values) return [axis.default];
    return token === undefined || token === '*' ? axis.values : [token];
  });
  for (const axis of named) {
    if (!selectable.some((cell) => cells.applies(axis, cell))) throw refuse(axis.notApplicable);
  }
  return parts;
}

/**
 * The values a pattern's part selects: left out, the run's (--tls-session); '*', every value of a
 * closed axis and the run's of an open one (a '*' size means --sizes, not every size some other
 * pattern names); else the one it names.
 */
function selectedValues(axis, token, opts) {
  if (token === undefined) return runValues(axis, opts);
  if (token === '*') return axis.values || runValues(axis, opts);
  return [valueOf(axis, token)];
}

/**
 * A --cells pattern such as 'http:*:close' or 'edge:1k:close:resumed' → a predicate on cells;
 * throws UsageError when malformed. A cell matches on every axis it has.
 */
function cellMatcher(pattern, opts = {}, cells = CELLS) {
  const parts = parsePattern(pattern, cells);
  const selected = cells.axes.map((axis) => [axis.key, selectedValues(axis, parts[axis.key], opts)]);
  return (cell) => selected.every(([key, values]) => cell[key] === null || values.includes(cell[key]));
}

/**
 * The cells to run. Values named in --cells join the run even if the axis's option leaves them
 * out, so `--cells edge:64k:close:resumed` works on its own.
 */
function planCells(opts, cells = CELLS) {
  const patterns = opts.cells;
  if (!patterns) return allCells(opts, cells);
  const matchers = patterns.map((p) => cellMatcher(p, opts, cells));
  const named = (axis) =>
    patterns
      .map((p) => parsePattern(p, cells)[axis.key])
      .filter((token) => token !== undefined && token !== '*')
      .map((token) => axis.token(axis.read(token)));
  // Every value of a closed axis; an open axis's: the run's and those the patterns name.
  const universe = product(cells, (axis) =>
    axis.values
      ? axis.values
      : [...new Set([...chosenTokens(axis, opts), ...named(axis)])].map((t) => valueOf(axis, t)),
  );
  const chosen = universe.filter((cell) => matchers.some((match) => match(cell)));
  if (!chosen.length) throw new UsageError(`--cells '${patterns.join(',')}' selects no cell`);
  return chosen;
}

/**
 * An axis's option (--sizes, --tls-session) as the name tokens a run records: an open axis's
 * written as in names ('1024' → '1k') once each, a closed axis's in declared order; throws naming
 * an unknown value.
 */
function chooseTokens(key, list, cells = CELLS) {
  const axis = cells.axes.find((a) => a.key === key);
  if (!axis.values) return [...new Set(list.map((token) => axis.token(axis.read(token))))];
  const unknown = list.filter((token) => !axis.values.includes(token));
  if (unknown.length) throw new Error(`'${unknown[0]}' is not one of ${axis.values.join(', ')}`);
  return axis.values.filter((value) => list.includes(value));
}

/** Rough seconds a run takes, for the ETA before the first cell has finished. */
function estimateSeconds(cellCount, opts, startupSeconds = 1) {
  const perCell =
    (opts.warmup ? opts.warmup + startupSeconds : 0) +
    opts.samples * (opts.duration + startupSeconds) +
    opts.cooldown +
    (opts.crossCheck ? opts.samples * (opts.duration + 0.5) : 0);
  return cellCount * perCell;
}

module.exports = { allCells, parsePattern, cellMatcher, planCells, chooseTokens, estimateSeconds };
