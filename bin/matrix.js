#!/usr/bin/env node
'use strict';
// npm run matrix: the router matrix against the lab or a cluster. See --help and docs/benchmark.md.
const { commandLine } = require('../lib/core/settings');
const { withInterrupt } = require('../lib/core/interrupt');
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
    const interrupted = err.name === 'AbortError';
    console.error(`matrix: ${interrupted ? 'interrupted' : err.message}`);
    // What finished is a run too: its report says it was interrupted.
    if (interrupted && err.run) finishRun({ opts, ...err.run });
    process.exitCode = interrupted ? 130 : (err.exitCode ?? 1);
  }
}

main();
