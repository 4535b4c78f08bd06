#!/usr/bin/env node
'use strict';
// npm run matrix: the router matrix against the lab or a cluster. See --help and docs/benchmark.md.
const { withInterrupt } = require('../lib/core/interrupt');
const { parseMatrixArgs, USAGE, UsageError } = require('../lib/matrix/options');
const { runMatrix } = require('../lib/matrix/run');
const { finishRun } = require('../lib/matrix/finish');

async function main() {
  let opts;
  try {
    opts = parseMatrixArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`matrix: ${err.message}`);
    process.exit(2);
  }
  if (opts.help) {
    console.log(USAGE);
    return;
  }
  try {
    const { dir, results } = await withInterrupt((signal) => runMatrix(opts, { signal }), {
      message: '\nmatrix: interrupted, stopping k6 and writing what finished',
    });
    finishRun({ opts, dir, results });
  } catch (err) {
    console.error(`matrix: ${err.name === 'AbortError' ? 'interrupted' : err.message}`);
    process.exitCode = err.name === 'AbortError' ? 130 : 1;
  }
}

main();
