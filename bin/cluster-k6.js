#!/usr/bin/env node
'use strict';
// npm run cluster:k6: one router-matrix cell run in the cluster by the k6-operator, merged into a
// results.json (lib/cluster/k6-testrun.js). See --help and docs/openshift.md.
const { commandLine } = require('../lib/core/settings');
const { withInterrupt } = require('../lib/core/interrupt');
const { runCommand } = require('../lib/core/run-command');
const { K6, parseK6 } = require('../lib/cluster/options');
const { clusterK6 } = require('../lib/cluster/k6-testrun');

const NAME = 'cluster:k6';

async function main() {
  const opts = commandLine(K6, process.argv.slice(2), { name: NAME, parse: parseK6 });
  await withInterrupt((signal) => clusterK6(opts, { signal }), {
    message: 'cluster:k6: interrupted: deleting the TestRun, which stops the runners',
  });
}

runCommand(NAME, main);
