#!/usr/bin/env node
'use strict';
// npm run lab: the project's main job. Setup if needed, the local lab up, the router matrix, the
// report, and the lab down again, also on failure or Ctrl-C.
const path = require('node:path');
const { runCommand } = require('../lib/core/run-command');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../lib/core/paths');
const { findTool } = require('../lib/core/tools');
const { withInterrupt } = require('../lib/core/interrupt');
const { commandLine, defineCommand } = require('../lib/core/settings');
const { parseMatrixArgs, SETTINGS, ENVIRONMENT } = require('../lib/matrix/options');
const { resolveLabOptions } = require('../lib/lab/options');

const COMMAND = defineCommand({
  usage: 'npm run lab -- [matrix options]',
  description: `Does everything, in order:
  1. setup, if a tool is missing (npm run setup -- --for lab)
  2. the local lab up (npm run lab:up): Redis, data-service instances, the HAProxy router
  3. the router matrix (npm run matrix), all 16 default cells unless options say otherwise
  4. the report: results/<run id>/report.html and report.md (not with --no-report)
  5. the lab down, also when something fails or on Ctrl-C (a lab that was already running
     before is left running)
and prints where the report is and the matrix table. The default matrix takes about 10 minutes
here; --quick about 2.`,
  optionsTitle: 'Every option of the matrix is passed through:',
  settings: SETTINGS,
  environment: ENVIRONMENT,
});

const REQUIRED_TOOLS = ['k6', 'haproxy', 'redis-server', 'openssl'];

function setupIfNeeded() {
  const setup = path.join(ROOT, 'bin', 'setup.js');
  const check = spawnSync(process.execPath, [setup, '--for', 'lab', '--check'], { stdio: 'ignore' });
  if (check.status === 0) return;
  console.log('• Setup: installing what the lab needs');
  const run = spawnSync(process.execPath, [setup, '--for', 'lab'], { stdio: 'inherit' });
  if (run.status === 0) return;
  // Setup also reports optional tools (wrk, for --cross-check only); go on if the lab can run.
  const missing = REQUIRED_TOOLS.filter((name) => !findTool(name));
  if (missing.length) {
    throw new Error(
      `setup could not provide ${missing.join(', ')} (see above); fix it, then run npm run lab again`,
    );
  }
  console.log('• Setup reported problems (see above), but everything the lab needs is there: going on');
}

async function main() {
  const opts = commandLine(COMMAND, process.argv.slice(2), { name: 'lab', parse: parseMatrixArgs });
  if (opts.target !== 'lab') {
    console.error(
      'lab: npm run lab runs against the local lab; use npm run matrix -- --target cluster for a cluster',
    );
    return 2;
  }
  // The LAB_* knobs, before setup installs anything: a bad one is a usage error (exit 2).
  try {
    resolveLabOptions(process.env);
  } catch (err) {
    console.error(`lab: ${err.message}`);
    return err.exitCode ?? 1;
  }

  return withInterrupt((signal) => runLab(opts, signal), {
    message: '\nlab: interrupted, stopping k6 and taking the lab down',
  });
}

/** Setup, lab up, the matrix and the report; the lab goes down again if this started it. */
async function runLab(opts, signal) {
  let lab;
  let startedHere = false;
  let exitCode = 0;
  try {
    setupIfNeeded();
    // Required after setup, which may have just installed what they load.
    lab = require('../lib/lab/index');
    const { runMatrix } = require('../lib/matrix/run');
    const { finishRun } = require('../lib/matrix/finish');

    const state = await lab.up({ signal: signal });
    startedHere = !state.alreadyRunning;
    if (!startedHere) console.log('• The lab was already running: using it, and leaving it up afterwards');
    const { dir, results } = await runMatrix(opts, { signal: signal });
    finishRun({ opts, dir, results });
  } catch (err) {
    const interrupted = signal.aborted || err.name === 'AbortError';
    console.error(`lab: ${interrupted ? 'interrupted' : err.message}`);
    if (interrupted && err.run) require('../lib/matrix/finish').finishRun({ opts, ...err.run });
    exitCode = interrupted ? 130 : (err.exitCode ?? 1);
  } finally {
    if (startedHere && lab) {
      try {
        await lab.down();
      } catch (err) {
        console.error(`lab: taking the lab down failed: ${err.message}; run npm run lab:down`);
        exitCode = exitCode || 1;
      }
    }
  }
  return exitCode;
}

const NAME = 'lab';
runCommand(NAME, main);
