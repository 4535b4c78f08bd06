#!/usr/bin/env node
'use strict';
// npm run cluster:deploy: Router Lab on OpenShift (lib/cluster/deploy.js). See --help and
// docs/openshift.md.
const { commandLine } = require('../lib/core/settings');
const { runCommand } = require('../lib/core/run-command');
const { DEPLOY, parseDeploy } = require('../lib/cluster/options');
const { deploy } = require('../lib/cluster/deploy');

const NAME = 'cluster:deploy';

function main() {
  deploy(commandLine(DEPLOY, process.argv.slice(2), { name: NAME, parse: parseDeploy }));
}

runCommand(NAME, main);
