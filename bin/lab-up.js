#!/usr/bin/env node
'use strict';
// npm run lab:up: Redis, the data-service instances and the router, on this machine.
const { withInterrupt } = require('../lib/core/interrupt');
const { runCommand } = require('../lib/core/run-command');
const { labCommand, parseArgs } = require('../lib/lab/common/cli');
const { up } = require('../lib/lab/index');
const { formatLab } = require('../lib/lab/format');

const NAME = 'lab:up';
const COMMAND = labCommand({
  name: NAME,
  usage: 'npm run lab:up [-- --help]',
  description: `Starts the local router lab: redis-server, LAB_REPLICAS data-service instances and HAProxy with
the OpenShift router's topology, then waits until all four Routes answer. Prints each Route's URL.
If the lab is already running it says so and changes nothing. Ctrl-C stops whatever was started.`,
});

async function main() {
  parseArgs(COMMAND, process.argv.slice(2));
  const begin = Date.now();
  const state = await withInterrupt((signal) => up({ signal }), {
    message: '\nCtrl-C: stopping what was started...',
  });
  if (!state.alreadyRunning) console.log(`\nThe lab is up (${((Date.now() - begin) / 1000).toFixed(1)} s).`);
  console.log(formatLab(state));
}

runCommand(NAME, main);
