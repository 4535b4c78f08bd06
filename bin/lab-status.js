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
  usage: 'npm run lab:status [-- --json | --cluster-args] [-- --help]',
  description: `Prints each Route (name, termination, URL, which instance answered), each process (pid, health,
cores), the router's view of its servers, the stats URL and the CPU placement.
Exit code 0 when the lab is up and healthy, 1 otherwise.`,
  settings: [
    { name: 'json', flag: '--json', type: 'boolean', help: 'the same as JSON (lab.json plus live health)' },
    {
      name: 'clusterArgs',
      flag: '--cluster-args',
      type: 'boolean',
      help:
        "only the matrix's arguments that measure this lab as a cluster (LAB_ROUTER=openshift): " +
        'npm run matrix -- $(npm run -s lab:status -- --cluster-args) --cells …',
    },
  ],
});

/** The arguments of the lab's "as a cluster" command, or an error saying which lab has them. */
function clusterArgs(report) {
  const command = report.state?.router?.monitoring?.clusterCommand;
  if (!command) {
    throw new Error(
      report.state
        ? 'this lab has no API server and Prometheus to measure it as a cluster: start it with LAB_ROUTER=openshift'
        : `no lab is running in ${report.labDir}: start one with 'LAB_ROUTER=openshift npm run lab:up'`,
    );
  }
  return command.replace(/^npm run matrix -- /, '');
}

async function main() {
  const flags = parseArgs(COMMAND, process.argv.slice(2));
  const report = await status();
  if (flags.clusterArgs) return console.log(clusterArgs(report));
  console.log(flags.json ? JSON.stringify(report, null, 2) : formatStatus(report));
  return report.running ? 0 : 1;
}

runCommand(NAME, main);
