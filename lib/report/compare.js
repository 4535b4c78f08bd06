'use strict';
// The reference comparison: Red Hat's figures and this run's, both as ratios to the http row
// under the same page size and connection mode. Absolute figures from other hardware are not
// comparable; ratios are (roughly): they say what a termination costs relative to plain HTTP.
const { AXES, CELLS, TERMINATIONS, sizeLabel, cellName, tlsEndsAt } = require('../../k6/lib/cells');
const { isRouterFigure } = require('./limits');

// A group's conditions are its cells' axes but the termination (its rows): those each reference
// column states (page size, connection), then those a whole table states (axis.reference: the TLS
// sessions of its close columns), whose unstated values (null) join every value.
const COLUMN_AXES = AXES.filter((axis) => axis.key !== 'termination' && !axis.reference);
const TABLE_AXES = AXES.filter((axis) => axis.reference);

/** The router's capacity per core in a cell (1 s ÷ its median µs per request), or null. */
const perCore = (cell) => (cell.capacity ? cell.capacity.perCoreRps : null);

/**
 * This run's cell of `termination` under a group's conditions ({ pageSize, connection, tlsSession }),
 * or undefined; a cell without an axis (no TLS session: keep-alive, http) matches any value of it.
 */
function findCell(results, termination, conditions) {
  return results.cells.find(
    (c) =>
      c.termination === termination &&
      AXES.every(
        (axis) =>
          axis.key === 'termination' ||
          (c[axis.key] ?? null) === null ||
          c[axis.key] === conditions[axis.key],
      ),
  );
}

/** A cell's TLS session evidence when the router's counters refuted its claim, or null. */
const refutedClaim = (cell) =>
  cell.tlsEvidence && cell.tlsEvidence.holds === false ? cell.tlsEvidence : null;

/**
 * The values of a table axis a group is made for, where its cells have the axis (close cells, for
 * TLS sessions): each value a reference table states and each this run measured; else [null].
 */
function tableAxisValues(results, axis, group) {
  if (!TERMINATIONS.some((termination) => CELLS.applies(axis, { ...group, termination }))) return [null];
  const stated = results.reference.tables.map(axis.reference);
  const measured = results.cells.map((c) => c[axis.key]);
  return axis.values.filter((v) => stated.includes(v) || measured.includes(v));
}

/** Whether a reference table's figures belong with a group: each table axis unstated or the same. */
const sameConditions = (table, group) =>
  TABLE_AXES.every(
    (axis) => group[axis.key] === null || [null, group[axis.key]].includes(axis.reference(table)),
  );

/**
 * The reference columns for one group, and a note per table with close columns saying how its
 * TLS sessions were measured.
 */
function groupColumns(reference, group) {
  const columns = [];
  const notes = [];
  for (const table of reference.tables) {
    if (
      group.tlsSession &&
      table.columns.some((col) => col.connection === 'close') &&
      sameConditions(table, group)
    ) {
      notes.push(`${table.short || table.title}: ${table.tlsSessionNote || 'TLS sessions not stated'}`);
    }
    for (const col of table.columns) {
      if (COLUMN_AXES.every((axis) => col[axis.key] === group[axis.key]) && sameConditions(table, group)) {
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
function groupRows(results, columns, runHttp, group) {
  return TERMINATIONS.map((termination) => {
    const cell = findCell(results, termination, group);
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
function rowNotes(results, rows, group) {
  const { tlsSession } = group;
  const notes = [];
  if (tlsSession === 'resumed') {
    notes.push(
      'the http row is its close cell (no TLS, k6), the others wrk’s (haload’s on passthrough in the lab): their ' +
        'req/s ratio sets two generators side by side, and the router’s CPU per request moves with the generator too ' +
        '(see the generators’ own cost, under Cross-check)',
    );
  }
  // A cell whose sessions were not the kind its name claims stays in the group, but flagged:
  // its figures belong with another kind's reference columns.
  for (const { run, termination } of rows.filter((r) => r.run && r.run.refutedClaim)) {
    notes.push(
      `⚠ ${run.cell}: the ${tlsEndsAt(termination)} resumed ` +
        `${run.refutedClaim.reusePct} % of its TLS sessions, so it did not measure ` +
        `${run.refutedClaim.claim} sessions as its name claims; its row is not like for like with these columns`,
    );
  }
  const missing = rows.filter((row) => !row.run).map((row) => row.termination);
  if (tlsSession && missing.length) {
    const names = missing.map((termination) => cellName({ ...group, termination }));
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
  const columnGroups = new Map(
    results.reference.tables.flatMap((t) =>
      t.columns.map((col) => {
        const group = Object.fromEntries(COLUMN_AXES.map((axis) => [axis.key, col[axis.key]]));
        return [JSON.stringify(group), group];
      }),
    ),
  );
  let candidates = [...columnGroups.values()];
  for (const axis of TABLE_AXES) {
    candidates = candidates.flatMap((group) =>
      tableAxisValues(results, axis, group).map((value) => ({ ...group, [axis.key]: value })),
    );
  }
  const groups = [];
  for (const group of candidates) {
    const { pageSize, connection } = group;
    const runHttp = findCell(results, 'http', group);
    if (!runHttp) continue;
    const { columns, notes } = groupColumns(results.reference, group);
    if (!columns.length) continue;
    const rows = groupRows(results, columns, runHttp, group);
    groups.push({
      ...group,
      sizeLabel: sizeLabel(pageSize),
      title: [
        `${sizeLabel(pageSize)} pages`,
        connection,
        ...TABLE_AXES.map((axis) => group[axis.key] !== null && axis.words?.[group[axis.key]]).filter(
          Boolean,
        ),
      ].join(', '),
      notes: [...notes, ...rowNotes(results, rows, group)],
      httpRps: runHttp.okRps,
      columns,
      rows,
    });
  }
  return groups;
}

module.exports = { findCell, comparisonGroups };
