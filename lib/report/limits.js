'use strict';
// How the report words a cell's limitedBy (decided once by lib/results-model/verdicts.js limitOf when
// the run was finalized). Every renderer formats it through here and decides nothing itself.

const BY_LABELS = {
  host: 'host busy (other work)',
  shared: 'shared host',
  load: 'offered load',
  unknown: 'unknown (not measured)',
};

/** Who limited the cell, in words: 'router', 'router + generator', 'shared host', 'offered load'. */
function byLabel({ by }) {
  return BY_LABELS[by] || by.split('+').join(' + ');
}

/** The "limited by" column: byLabel, and whether the host was busy with other work. */
function limitLabel(limitedBy) {
  const busy = limitedBy.hostBusy && limitedBy.by !== 'host';
  return `${byLabel(limitedBy)}${busy ? ' (host busy)' : ''}`;
}

/** Whether the cell's req/s is the router's own limit: the router, alone, was at its limit. */
function isRouterFigure(cell) {
  return cell.limitedBy.by === 'router';
}

/** Whether the cell has no verdict: what limited it was not measured (an in-cluster run). */
function isUnmeasured(cell) {
  return cell.limitedBy.by === 'unknown';
}

/** The texts of a cell's reasons about `role`. */
function reasonTexts(cell, role) {
  return cell.limitedBy.reasons.filter((r) => r.role === role).map((r) => r.text);
}

module.exports = {
  byLabel,
  limitLabel,
  isRouterFigure,
  isUnmeasured,
  reasonTexts,
};
