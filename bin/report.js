#!/usr/bin/env node
'use strict';
// npm run report -- <results dir>: re-renders report.md and report.html from results.json.
const { defineCommand, commandLine } = require('../lib/core/settings');
const { renderReport } = require('../lib/report/index');
const { formatCellTable } = require('../lib/report/tables');

const COMMAND = defineCommand({
  usage: 'npm run report -- <results dir>',
  description: `Re-renders report.md and report.html in <results dir> (e.g. results/20261120-223800Z) from its
results.json, and prints the matrix table. Nothing is measured again.`,
  positionals: { count: 1, name: 'results directory' },
});

function main(argv) {
  const { positionals } = commandLine(COMMAND, argv, { name: 'report' });
  try {
    const { md, html, results } = renderReport(positionals[0]);
    console.log(`${formatCellTable(results)}\n\nreport: ${html}\n        ${md}`);
    return 0;
  } catch (err) {
    console.error(`report: ${err.message}`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
