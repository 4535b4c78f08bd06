#!/usr/bin/env node
'use strict';
// npm run matrix: the router matrix against the lab or a cluster. See --help and docs/benchmark.md.
const { commandLine } = require('../lib/core/settings');
const { withInterrupt, failureExitCode } = require('../lib/core/interrupt');
const { parseMatrixArgs, COMMAND } = require('../lib/matrix/options');
const { runMatrix } = require('../lib/matrix/run');
const { finishRun } = require('../lib/matrix/finish');

async function main() {
  const opts = commandLine(COMMAND, process.argv.slice(2), { name: 'matrix', parse: parseMatrixArgs });
  try {
    const { dir, results } = await withInterrupt((signal) => runMatrix(opts, { signal }), {
      message: '\nmatrix: interrupted, stopping k6 and writing what finished',
    });
    finishRun({ opts, dir, results });
  } catch (err) {
    process.exitCode = failureExitCode('matrix', err);
    // What finished is a run too (err.run: interrupted only): its report says it was interrupted.
    if (err.run) finishRun({ opts, ...err.run });
  }
}

main();
