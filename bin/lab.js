#!/usr/bin/env node
'use strict';
// npm run lab: the project's main job. Setup if needed, the local lab up, the router matrix, the
// report, and the lab down again, also on failure or Ctrl-C.
const { runCommand } = require('../lib/core/run-command');
const { withInterrupt } = require('../lib/core/interrupt');
const { commandLine, defineCommand } = require('../lib/core/settings');
const { parseMatrixArgs, SETTINGS, ENVIRONMENT } = require('../lib/matrix/options');
const { resolveLabOptions } = require('../lib/lab/common/options');
const { runLab } = require('../lib/matrix/lab-run');

const NAME = 'lab';

const COMMAND = defineCommand({
  usage: 'npm run lab -- [matrix options]',
  description: `Does everything, in order:
  1. setup, if a tool is missing (npm run setup -- --for lab)
  2. the local lab up (npm run lab:up): Redis, data-service instances, the HAProxy router
  3. the router matrix (npm run matrix), every default cell unless options say otherwise
  4. the report: results/<run id>/report.html and report.md (not with --no-report)
  5. the lab down, also when something fails or on Ctrl-C (a lab that was already running
     before is left running)
and prints where the report is and the matrix table. The default matrix takes about 13 minutes
on two cores; --quick about 2.`,
  optionsTitle: 'Every option of the matrix is passed through:',
  settings: SETTINGS,
  environment: ENVIRONMENT,
});

async function main() {
  const opts = commandLine(COMMAND, process.argv.slice(2), { name: NAME, parse: parseMatrixArgs });
  if (opts.target !== 'lab') {
    console.error(
      'lab: npm run lab runs against the local lab; use npm run matrix -- --target cluster for a cluster',
    );
    return 2;
  }
  // The LAB_* knobs, before setup installs anything: a bad one is a usage error (exit 2).
  resolveLabOptions(process.env);

  return withInterrupt((signal) => runLab(opts, signal), {
    message: '\nlab: interrupted, stopping the load generator and taking the lab down',
  });
}

runCommand(NAME, main);
