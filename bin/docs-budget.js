#!/usr/bin/env node
'use strict';
// Part of npm run lint: fails when a page of docs/ or docs/ as a whole is over its size budget
// (lib/guide/docs-budget.js), naming each page that is.
const path = require('node:path');
const { defineCommand, commandLine } = require('../lib/core/settings');
const { runCommand } = require('../lib/core/run-command');
const { ROOT } = require('../lib/core/paths');
const {
  DOCS_BUDGET,
  docsSizes,
  budgetBreaches,
  breachText,
  budgetSummary,
} = require('../lib/guide/docs-budget');

const NAME = 'docs-budget';
const COMMAND = defineCommand({
  usage: 'node bin/docs-budget.js',
  description: `Checks the guide's size budget: no file of docs/ over ${DOCS_BUDGET.pageBytes / 1024} KiB, docs/ within
${DOCS_BUDGET.totalBytes / 1024} KiB. Prints each breach, naming the page, and exits 1; run by npm run lint.`,
});

function main() {
  commandLine(COMMAND, process.argv.slice(2), { name: NAME });
  const sizes = docsSizes(path.join(ROOT, 'docs'));
  const breaches = budgetBreaches(sizes);
  for (const breach of breaches) console.error(`${NAME}: ${breachText(breach)}`);
  if (breaches.length) return 1;
  console.log(budgetSummary(sizes));
  return 0;
}

runCommand(NAME, main);
