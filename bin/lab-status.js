#!/usr/bin/env node
'use strict';
// npm run lab:status: every Route, process, health and the router's stats URL.
const { parseArgs, fail } = require('../lib/lab/cli');
const { status } = require('../lib/lab/index');
const { formatStatus } = require('../lib/lab/format');

const USAGE = `Usage: npm run lab:status [-- --json] [-- --help]

Prints each Route (name, termination, URL, which instance answered), each process (pid, health,
cores), HAProxy's view of its servers, the stats URL and the CPU placement.
Exit code 0 when the lab is up and healthy, 1 otherwise.
  --json   the same as JSON (lab.json plus live health)`;

async function main() {
  const flags = parseArgs(process.argv.slice(2), { usage: USAGE, flags: ['--json'] });
  try {
    const report = await status();
    console.log(flags.json ? JSON.stringify(report, null, 2) : formatStatus(report));
    process.exitCode = report.running ? 0 : 1;
  } catch (err) {
    fail(err);
  }
}

main();
