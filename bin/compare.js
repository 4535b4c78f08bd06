#!/usr/bin/env node
'use strict';
// npm run compare -- <run A> <run B> [<run C> …]: did each later run change anything against A? Each
// common cell's figures with 95 % intervals and a verdict, and every condition that differs.
const fs = require('node:fs');
const path = require('node:path');
const { defineCommand, commandLine } = require('../lib/core/settings');
const { out } = require('../lib/core/shared-settings');
const { runCommand } = require('../lib/core/run-command');
const { runDir } = require('../lib/core/paths');
const { readResults } = require('../lib/results-model/document');
const { compareRuns, poolRuns } = require('../lib/results-model/comparison');
const { comparisonMarkdown, comparisonHtml, comparisonConsole } = require('../lib/report/comparison');

const NAME = 'compare';
const COMMAND = defineCommand({
  usage:
    'npm run compare -- <run A>[+<run A2>…] <run B>[+…] [<run C> …] [--out DIR] [--allow-different-cells]',
  description: `Compares run B with run A (results directories, e.g. results/20261120-223800Z) cell by cell: the
change in router µs per request, req/s, p99, generator µs per request and the router's µs in
units of the generator's (which a slow spell of the machine leaves alone), each with a 95 %
interval from the samples, a verdict (better, worse, no difference detectable, or too few samples
for an interval: 4 a side at least), and the samples a 5 % change would need at that spread.
Lists every condition that differs between the runs. More runs: each is compared with A.
A side may be several runs of the same conditions joined with '+', their samples pooled: take
them in turn with the other side's (A B A B) so that the machine's drift falls on both.
Writes compare.md and compare.html.`,
  positionals: { min: 2, name: 'results directories' },
  settings: [
    out('where to write (default results/compare-<A>-<B>)'),
    {
      name: 'allowDifferentCells',
      flag: '--allow-different-cells',
      type: 'boolean',
      help: 'compare cells whose own conditions differ (another tool, other TLS sessions); refused otherwise',
    },
  ],
});

function main() {
  const { values, positionals } = commandLine(COMMAND, process.argv.slice(2), { name: NAME });
  const [a, ...others] = positionals.map((side) => poolRuns(side.split('+').map(readResults)));
  const options = { allowDifferentCells: Boolean(values.allowDifferentCells) };
  const comparisons = others.map((b) => compareRuns(a, b, options));
  const ids = [a, ...others].map((r) => r.id).join('-');
  const dir = runDir(values.out, `compare-${ids}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'compare.md'), comparisonMarkdown(comparisons));
  fs.writeFileSync(path.join(dir, 'compare.html'), comparisonHtml(comparisons));
  console.log(
    `${comparisonConsole(comparisons)}\n\ncompare: ${path.join(dir, 'compare.html')}\n         ${path.join(dir, 'compare.md')}`,
  );
}

runCommand(NAME, main);
