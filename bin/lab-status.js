#!/usr/bin/env node
'use strict';
// npm run lab:status: every Route, process, health and the router's stats URL.
const { runCommand } = require('../lib/core/run-command');
const { labCommand, parseArgs } = require('../lib/lab/common/cli');
const { status } = require('../lib/lab/index');
const { formatStatus } = require('../lib/lab/format');

const NAME = 'lab:status';
const COMMAND = labCommand({
  name: NAME,
  usage: 'npm run lab:status [-- --json] [-- --help]',
  description: `Prints each Route (name, termination, URL, which instance answered), each process (pid, health,
cores), HAProxy's view of its servers, the stats URL and the CPU placement.
Exit code 0 when the lab is up and healthy, 1 otherwise.`,
  settings: [
    { name: 'json', flag: '--json', type: 'boolean', help: 'the same as JSON (lab.json plus live health)' },
  ],
});

async function main() {
  const flags = parseArgs(COMMAND, process.argv.slice(2));
  const report = await status();
  console.log(flags.json ? JSON.stringify(report, null, 2) : formatStatus(report));
  return report.running ? 0 : 1;
}

runCommand(NAME, main);
