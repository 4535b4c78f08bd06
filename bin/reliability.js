#!/usr/bin/env node
'use strict';
// npm run reliability: fault scenarios under load against the lab, each with a verdict; the lab
// is started (and stopped again) when none runs, and left as it was on failure or Ctrl-C.
const { runCommand } = require('../lib/core/run-command');
const { withInterrupt } = require('../lib/core/interrupt');
const { commandLine } = require('../lib/core/settings');
const { COMMAND } = require('../lib/reliability/options');
const { reliabilityCommand } = require('../lib/reliability/run');

const NAME = 'reliability';

async function main() {
  const { values: opts } = commandLine(COMMAND, process.argv.slice(2), { name: NAME });
  return withInterrupt((signal) => reliabilityCommand(opts, signal), {
    message: '\nreliability: interrupted, stopping the load and undoing the fault',
  });
}

runCommand(NAME, main);
