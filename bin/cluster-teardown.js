#!/usr/bin/env node
'use strict';
// npm run cluster:teardown: removes what cluster:deploy (and cluster:k6) created. See --help.
const { commandLine } = require('../lib/core/settings');
const { runCommand } = require('../lib/core/run-command');
const { TEARDOWN } = require('../lib/cluster/options');
const { teardown } = require('../lib/cluster/teardown');

const NAME = 'cluster:teardown';

function main() {
  teardown(commandLine(TEARDOWN, process.argv.slice(2), { name: NAME }).values);
}

runCommand(NAME, main);
