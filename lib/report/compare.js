'use strict';
// The reference comparison: Red Hat's figures and this run's, both as ratios to the http row
// under the same page size and connection mode. Absolute figures from other hardware are not
// comparable; ratios are (roughly): they say what a termination costs relative to plain HTTP.
const { TERMINATIONS, sizeLabel } = require('../../k6/lib/cells');
const { isRouterFigure } = require('./limits');

/** The router's capacity per core in a cell (1 s ÷ its median µs per request), or null. */
const perCore = (cell) => (cell.capacity ? cell.capacity.perCoreRps : null);

/** This run's cell for termination/pageSize/connection, or undefined. */
function findCell(results, termination, pageSize, connection) {
  return results.cells.find(
    (c) => c.termination === termination && c.pageSize === pageSize && c.connection === connection,
  );
}

/**
 * One comparison group per (pageSize, connection) that this run measured and a reference table
 * has: { pageSize, connection, rows: [{ termination, run: { rps, ratio, routerFigure, capacityRatio }, refs: [{
 * tableId, column, value, ratio, normalisedRps }] }], columns: [{ tableId, title, conditions,
 * label }] }.
 */
function comparisonGroups(results) {
  const groups = [];
  const reference = results.reference;
  const keys = new Set(
    reference.tables.flatMap((t) => t.columns.map((col) => `${col.pageSize}|${col.connection}`)),
  );
  for (const key of keys) {
    const [size, connection] = key.split('|');
    const pageSize = Number(size);
    const runHttp = findCell(results, 'http', pageSize, connection);
    if (!runHttp) continue;
    const columns = [];
    for (const table of reference.tables) {
      for (const col of table.columns) {
        if (col.pageSize === pageSize && col.connection === connection) {
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
    const rows = TERMINATIONS.map((termination) => {
      const cell = findCell(results, termination, pageSize, connection);
      // The req/s ratio is the router's only when the router limited both cells; the capacity
      // ratio divides the router's own capacities (from its CPU per request) whoever limited them.
      const run = cell
        ? {
            rps: cell.okRps,
            ratio: runHttp.okRps ? cell.okRps / runHttp.okRps : null,
            routerFigure: isRouterFigure(cell) && isRouterFigure(runHttp),
            capacityRatio: perCore(runHttp) && perCore(cell) ? perCore(cell) / perCore(runHttp) : null,
          }
        : null;
      const refs = columns.map((col) => {
        const table = reference.tables.find((t) => t.id === col.tableId);
        const value = table.rows[termination][col.key];
        const ratio = value / table.rows.http[col.key];
        return { ...col, value, ratio, normalisedRps: runHttp.okRps * ratio };
      });
      return { termination, run, refs };
    });
    groups.push({
      pageSize,
      sizeLabel: sizeLabel(pageSize),
      connection,
      httpRps: runHttp.okRps,
      columns,
      rows,
    });
  }
  return groups;
}

module.exports = { findCell, comparisonGroups };
