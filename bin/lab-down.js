#!/usr/bin/env node
'use strict';
// npm run lab:down: stops exactly the processes lab:up started.
const { runCommand } = require('../lib/core/run-command');
const { labCommand, parseArgs } = require('../lib/lab/common/cli');
const { down } = require('../lib/lab/index');

const NAME = 'lab:down';
const COMMAND = labCommand({
  name: NAME,
  usage: 'npm run lab:down [-- --help]',
  description: `Stops the processes lab:up started (router first, then the data-service instances, then Redis),
using the pid files in LAB_DIR/pids. A pid that now belongs to another program is left alone.
Logs and certificates stay in LAB_DIR for inspection.`,
});

async function main() {
  parseArgs(COMMAND, process.argv.slice(2));
  const { labDir, stopped } = await down();
  console.log(stopped.length ? `The lab in ${labDir} is down.` : `No lab processes recorded in ${labDir}.`);
}

runCommand(NAME, main);
