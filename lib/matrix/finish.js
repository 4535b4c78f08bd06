'use strict';
// The end of a matrix run, the same for `npm run matrix` and `npm run lab`: the report unless
// --no-report, then the console table and where everything is.
const path = require('node:path');
const { renderReport } = require('../report/index');
const { formatCellTable } = require('../report/tables');

/** Renders the report if opts.report; returns its files ({ md, html }) or null. */
function finishRun({ opts, dir, results, log = console.log }) {
  const files = opts.report ? renderReport(dir) : null;
  log(`\n${formatCellTable(results)}\n`);
  if (files) log(`Report: ${files.html}\n        ${files.md}`);
  else log(`Report: not rendered (--no-report); render it later with: npm run report -- ${dir}`);
  log(`Raw samples (k6 summaries; wrk's and haload's figures in their shape): ${path.join(dir, 'raw')}`);
  return files;
}

/** What an interrupted run finished is a run too (err.run, set on abort only): its report says so. */
function finishInterrupted(opts, err) {
  if (err.run) finishRun({ opts, ...err.run });
}

module.exports = { finishRun, finishInterrupted };
