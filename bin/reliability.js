#!/usr/bin/env node
'use strict';
// npm run reliability: fault scenarios under load against the lab, each with a verdict; the lab
// is started (and stopped again) when none runs, and left as it was on failure or Ctrl-C.
const path = require('node:path');
const { runCommand, reportError } = require('../lib/core/run-command');
const { RESULTS_DIR } = require('../lib/core/paths');
const { withInterrupt } = require('../lib/core/interrupt');
const { commandLine } = require('../lib/core/settings');
const { COMMAND } = require('../lib/reliability/options');
const { runReliability, selectScenarios } = require('../lib/reliability/run');
const { runId } = require('../lib/matrix/run');
const { withLab } = require('../lib/lab/with-lab');

async function run(opts, signal) {
  const onError = (err) => {
    const code = reportError('reliability', err, signal);
    if (err.run) console.error(`  what finished: ${path.join(err.run.dir, 'reliability.md')}`);
    return code;
  };
  return withLab('reliability', { signal, onError }, async () => {
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
    return doc.pass ? 0 : 1;
  });
}

async function main() {
  const { values: opts } = commandLine(COMMAND, process.argv.slice(2), { name: 'reliability' });
  return withInterrupt((signal) => run(opts, signal), {
    message: '\nreliability: interrupted, stopping the load and undoing the fault',
  });
}

const NAME = 'reliability';
runCommand(NAME, main);
