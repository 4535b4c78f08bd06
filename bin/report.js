#!/usr/bin/env node
'use strict';
// npm run report -- <results dir>: re-renders report.md and report.html from results.json.
const { defineCommand, commandLine } = require('../lib/core/settings');
const { runCommand } = require('../lib/core/run-command');
const { renderReport } = require('../lib/report/index');
const { formatCellTable } = require('../lib/report/tables');

const COMMAND = defineCommand({
  usage: 'npm run report -- <results dir>',
  description: `Re-renders report.md and report.html in <results dir> (e.g. results/20261120-223800Z) from its
results.json, and prints the matrix table. Nothing is measured again.`,
  positionals: { count: 1, name: 'results directory' },
});

const NAME = 'report';

function main() {
  const { positionals } = commandLine(COMMAND, process.argv.slice(2), { name: NAME });
  const { md, html, results } = renderReport(positionals[0]);
  console.log(`${formatCellTable(results)}\n\nreport: ${html}\n        ${md}`);
}

runCommand(NAME, main);
