'use strict';
// The reference comparison: Red Hat's figures and this run's, both as ratios to the http row
// under the same page size and connection mode. Absolute figures from other hardware are not
// comparable; ratios are (roughly): they say what a termination costs relative to plain HTTP.
const { TERMINATIONS, sizeLabel, cellName } = require('../../k6/lib/cells');
const { isRouterFigure } = require('./limits');

/** The router's capacity per core in a cell (1 s ÷ its median µs per request), or null. */
const perCore = (cell) => (cell.capacity ? cell.capacity.perCoreRps : null);

/**
 * This run's cell for termination/pageSize/connection, or undefined; `tlsSession` picks the kind of
 * close cell through a TLS route (cells without a session, keep-alive and http, match any).
 */
function findCell(results, termination, pageSize, connection, tlsSession = null) {
  return results.cells.find(
    (c) =>
      c.termination === termination &&
      c.pageSize === pageSize &&
      c.connection === connection &&
      (!c.tlsSession || c.tlsSession === tlsSession),
  );
}

/** A cell's TLS session evidence when the router's counters refuted its claim, or null. */
const refutedClaim = (cell) =>
  cell.tlsEvidence && cell.tlsEvidence.holds === false ? cell.tlsEvidence : null;

const SESSION_WORDS = {
  full: 'full TLS handshakes (k6)',
  resumed: 'resumed TLS sessions (wrk)',
};

/**
 * The session kinds a close comparison is made for: each kind a reference table states, and the
 * kinds this run measured. A table whose condition is unknown joins every kind.
 */
function closeSessions(results) {
  const stated = results.reference.tables.map((t) => t.tlsSession).filter((k) => k && k !== 'unknown');
  const measured = results.cells.map((c) => c.tlsSession).filter(Boolean);
  return ['full', 'resumed'].filter((k) => stated.includes(k) || measured.includes(k));
}

/** Whether a reference table's close columns belong with cells of `session`. */
const sameSessions = (table, session) =>
  session === null || table.tlsSession === session || (table.tlsSession || 'unknown') === 'unknown';

/**
 * The reference columns for one group, and a note per table with close columns saying how its
 * TLS sessions were measured.
 */
function groupColumns(reference, { pageSize, connection, tlsSession }) {
  const columns = [];
  const notes = [];
  for (const table of reference.tables) {
    if (
      tlsSession &&
      table.columns.some((col) => col.connection === 'close') &&
      sameSessions(table, tlsSession)
    ) {
      notes.push(`${table.short || table.title}: ${table.tlsSessionNote || 'TLS sessions not stated'}`);
    }
    for (const col of table.columns) {
      if (col.pageSize === pageSize && col.connection === connection && sameSessions(table, tlsSession)) {
        columns.push({
          tableId: table.id,
          short: table.short || table.title.replace(/:.*/, ''),
          title: table.title,
          conditions: table.conditions,
          key: col.key,
          label: col.label,
        });
      }
    }
  }
  return { columns, notes };
}

/** One row per termination: this run's cell as ratios to http, beside each reference column's. */
function groupRows(results, columns, runHttp, { pageSize, connection, tlsSession }) {
  return TERMINATIONS.map((termination) => {
    const cell = findCell(results, termination, pageSize, connection, tlsSession);
    // The req/s ratio is the router's only when the router limited both cells; the capacity
    // ratio divides the router's own capacities (from its CPU per request) whoever limited them.
    const run = cell
      ? {
          cell: cell.name,
          rps: cell.okRps,
          ratio: runHttp.okRps ? cell.okRps / runHttp.okRps : null,
          routerFigure: isRouterFigure(cell) && isRouterFigure(runHttp),
          capacityRatio: perCore(runHttp) && perCore(cell) ? perCore(cell) / perCore(runHttp) : null,
          refutedClaim: refutedClaim(cell),
        }
      : null;
    const refs = columns.map((col) => {
      const table = results.reference.tables.find((t) => t.id === col.tableId);
      const value = table.rows[termination][col.key];
      const ratio = value / table.rows.http[col.key];
      return { ...col, value, ratio, normalisedRps: runHttp.okRps * ratio };
    });
    return { termination, run, refs };
  });
}

/** What the reader must know of a group's rows: two generators, a refuted claim, a missing cell. */
function rowNotes(results, rows, { pageSize, connection, tlsSession }) {
  const notes = [];
  if (tlsSession === 'resumed') {
    notes.push(
      'the http row is its close cell (no TLS, k6), the others wrk’s: their req/s ratio sets two generators side ' +
        'by side, their capacity ratio (the router’s CPU per request) does not depend on the generator',
    );
  }
  // A cell whose sessions were not the kind its name claims stays in the group, but flagged:
  // its figures belong with another kind's reference columns.
  for (const { run } of rows.filter((r) => r.run && r.run.refutedClaim)) {
    notes.push(
      `⚠ ${run.cell}: the router resumed ${run.refutedClaim.reusePct} % of its TLS sessions, so it did not measure ` +
        `${run.refutedClaim.claim} sessions as its name claims; its row is not like for like with these columns`,
    );
  }
  const missing = rows.filter((row) => !row.run).map((row) => row.termination);
  if (tlsSession && missing.length) {
    const names = missing.map((m) => cellName(m, pageSize, connection, tlsSession));
    const skipped = results.skippedCells.filter((s) => names.includes(s.name));
    notes.push(
      `no ${tlsSession} cell for ${missing.join(', ')} in this run` +
        (skipped.length ? `: ${skipped.map((s) => s.reason).join('; ')}` : ''),
    );
  }
  return notes;
}

/**
 * One comparison group per (pageSize, connection, TLS session of close cells) that this run
 * measured and a reference table has. Like is compared with like: a table whose close figures
 * were measured with resumed sessions (OpenShift 4.x) is compared with resumed cells only; one
 * whose condition is unknown (3.11) with both kinds, and says so. { pageSize, connection,
 * tlsSession, title, notes, rows: [{ termination, run: { cell, rps, ratio, routerFigure,
 * capacityRatio, refutedClaim } | null, refs: [{ tableId, column, value, ratio, normalisedRps }] }], columns:
 * [{ tableId, title, conditions, label }] }.
 */
function comparisonGroups(results) {
  const keys = new Set(
    results.reference.tables.flatMap((t) => t.columns.map((col) => `${col.pageSize}|${col.connection}`)),
  );
  const sessionKeys = [...keys].flatMap((key) =>
    key.endsWith('|close') ? closeSessions(results).map((session) => [key, session]) : [[key, null]],
  );
  const groups = [];
  for (const [key, tlsSession] of sessionKeys) {
    const [size, connection] = key.split('|');
    const group = { pageSize: Number(size), connection, tlsSession };
    const runHttp = findCell(results, 'http', group.pageSize, connection);
    if (!runHttp) continue;
    const { columns, notes } = groupColumns(results.reference, group);
    if (!columns.length) continue;
    const rows = groupRows(results, columns, runHttp, group);
    groups.push({
      ...group,
      sizeLabel: sizeLabel(group.pageSize),
      title: `${sizeLabel(group.pageSize)} pages, ${connection}${tlsSession ? `, ${SESSION_WORDS[tlsSession]}` : ''}`,
      notes: [...notes, ...rowNotes(results, rows, group)],
      httpRps: runHttp.okRps,
      columns,
      rows,
    });
  }
  return groups;
}

module.exports = { findCell, comparisonGroups };
