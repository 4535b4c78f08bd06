#!/usr/bin/env node
'use strict';
// npm run report -- <results dir>: re-renders report.md and report.html from results.json.
const { renderReport } = require('../lib/report/index');
const { formatCellTable } = require('../lib/report/tables');

const USAGE = `Usage: npm run report -- <results dir>

Re-renders report.md and report.html in <results dir> (e.g. results/20261120-223800Z) from its
results.json, and prints the matrix table. Nothing is measured again.`;

function main(argv) {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  if (argv.length !== 1 || argv[0].startsWith('-')) {
    console.error(`report: give exactly one results directory\n\n${USAGE}`);
    return 2;
  }
  try {
    const { md, html, results } = renderReport(argv[0]);
    console.log(`${formatCellTable(results)}\n\nreport: ${html}\n        ${md}`);
    return 0;
  } catch (err) {
    console.error(`report: ${err.message}`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
