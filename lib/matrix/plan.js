'use strict';
// Which cells a run measures, in order, from the options: the default dimensions, --sizes,
// --tls-session and the --cells filter (with '*' wildcards). Pure.
const {
  TERMINATIONS,
  CONNECTIONS,
  TLS_SESSIONS,
  parseSize,
  sizeLabel,
  cellName,
  hasTlsSession,
} = require('../../k6/lib/cells');
const { UsageError } = require('../core/settings');

/** Every cell of these sizes; close cells through a TLS route once per TLS session kind. */
function allCells(sizes, tlsSessions = TLS_SESSIONS) {
  const cells = [];
  for (const termination of TERMINATIONS) {
    for (const size of sizes) {
      for (const connection of CONNECTIONS) {
        const pageSize = parseSize(size);
        const sessions = hasTlsSession(termination, connection) ? tlsSessions : [null];
        for (const tlsSession of sessions) {
          const name = cellName(termination, pageSize, connection, tlsSession);
          cells.push({ name, termination, pageSize, connection, tlsSession });
        }
      }
    }
  }
  return cells;
}

/**
 * A --cells pattern such as 'http:*:close' or 'edge:1k:close:resumed' → a predicate; throws
 * UsageError when malformed. `sizes` are what '*' stands for in the size part; a pattern without
 * a session part matches the close cells of the `tlsSessions` kinds (--tls-session).
 */
function cellMatcher(pattern, sizes = [], tlsSessions = TLS_SESSIONS) {
  const parts = pattern.split(':');
  if (parts.length < 3 || parts.length > 4) {
    throw new UsageError(
      `--cells: '${pattern}' must be termination:size:connection[:session], e.g. edge:1k:keepalive or edge:*:close:resumed`,
    );
  }
  const [t, s, c, session = null] = parts;
  if (session !== null && session !== '*' && !TLS_SESSIONS.includes(session)) {
    throw new UsageError(`--cells: '${pattern}': session must be * or one of ${TLS_SESSIONS.join(', ')}`);
  }
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
    (c === '*' || cell.connection === c) &&
    (cell.tlsSession === null ||
      (session === null
        ? tlsSessions.includes(cell.tlsSession)
        : session === '*' || cell.tlsSession === session));
}

/**
 * The cells to run. Sizes and session kinds named in --cells join the run even if --sizes or
 * --tls-session leave them out, so `--cells edge:64k:close:resumed` works on its own.
 */
function planCells({ sizes, cells: patterns, tlsSessions = TLS_SESSIONS }) {
  if (!patterns) return allCells(sizes, tlsSessions);
  const matchers = patterns.map((p) => cellMatcher(p, sizes, tlsSessions));
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
