#!/usr/bin/env node
'use strict';
// npm run reliability: fault scenarios under load against the lab, each with a verdict; the lab
// is started (and stopped again) when none runs, and left as it was on failure or Ctrl-C.
const path = require('node:path');
const { runCommand } = require('../lib/core/run-command');
const { RESULTS_DIR } = require('../lib/core/paths');
const { withInterrupt } = require('../lib/core/interrupt');
const { commandLine } = require('../lib/core/settings');
const { COMMAND } = require('../lib/reliability/options');
const { runReliability, selectScenarios } = require('../lib/reliability/run');
const { runId } = require('../lib/matrix/run');
const lab = require('../lib/lab/index');

async function run(opts, signal) {
  let startedHere = false;
  let exitCode = 0;
  try {
    const state = await lab.up({ signal });
    startedHere = !state.alreadyRunning;
    if (!startedHere) console.log('• The lab was already running: using it, and leaving it up afterwards');
    const id = runId();
    const dir = path.resolve(opts.out || path.join(RESULTS_DIR, id));
    const { doc } = await runReliability({
      scenarios: selectScenarios(opts.scenarios),
      opts,
      dir,
      runId: id,
      signal,
    });
    console.log(
      `\n${doc.pass ? 'Every promise held' : 'A promise was broken'}: ${path.join(dir, 'reliability.md')}`,
    );
    exitCode = doc.pass ? 0 : 1;
  } catch (err) {
    const interrupted = signal.aborted || err.name === 'AbortError';
    console.error(`reliability: ${interrupted ? 'interrupted' : err.message}`);
    if (err.run) console.error(`  what finished: ${path.join(err.run.dir, 'reliability.md')}`);
    exitCode = interrupted ? 130 : (err.exitCode ?? 1);
  } finally {
    if (startedHere) {
      try {
        await lab.down();
      } catch (err) {
        console.error(`reliability: taking the lab down failed: ${err.message}; run npm run lab:down`);
        exitCode = exitCode || 1;
      }
    }
  }
  return exitCode;
}

async function main() {
  const { values: opts } = commandLine(COMMAND, process.argv.slice(2), { name: 'reliability' });
  return withInterrupt((signal) => run(opts, signal), {
    message: '\nreliability: interrupted, stopping the load and undoing the fault',
  });
}

const NAME = 'reliability';
runCommand(NAME, main);
