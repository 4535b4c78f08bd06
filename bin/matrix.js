#!/usr/bin/env node
'use strict';
// npm run matrix: the router matrix against the lab or a cluster. See --help and docs/benchmark.md.
const { commandLine } = require('../lib/core/settings');
const { runCommand, reportError } = require('../lib/core/run-command');
const { withInterrupt } = require('../lib/core/interrupt');
const { parseMatrixArgs, COMMAND } = require('../lib/matrix/options');
const { runMatrix } = require('../lib/matrix/run');
const { finishRun, finishInterrupted } = require('../lib/matrix/finish');

const NAME = 'matrix';

async function main() {
  const opts = commandLine(COMMAND, process.argv.slice(2), { name: NAME, parse: parseMatrixArgs });
  try {
    const { dir, results } = await withInterrupt((signal) => runMatrix(opts, { signal }), {
      message: '\nmatrix: interrupted, stopping k6 and writing what finished',
    });
    finishRun({ opts, dir, results });
  } catch (err) {
    // Said first, then what finished (an interrupted run is a run too), as npm run lab does.
    const code = reportError(NAME, err);
    finishInterrupted(opts, err);
    return code;
  }
}

runCommand(NAME, main);
