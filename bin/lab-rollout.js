#!/usr/bin/env node
'use strict';
// npm run lab:rollout: a rolling restart of the data-service instances, like
// `oc rollout restart deployment/data-service`. Run load at the same time and count the errors.
const { withInterrupt } = require('../lib/core/interrupt');
const { runCommand } = require('../lib/core/run-command');
const { labCommand, parseArgs } = require('../lib/lab/common/cli');
const { rollout } = require('../lib/lab/index');

const NAME = 'lab:rollout';
const COMMAND = labCommand({
  name: NAME,
  usage: 'npm run lab:rollout [-- --via-reload] [-- --help]',
  description: `Restarts the data-service instances of the running lab one at a time: SIGTERM (readiness turns
503, the router's /readyz health check takes the instance out, it drains and exits), start it
again on the same ports, wait until the router has it UP in every backend, then the next one.
Run it while load runs (docs/exercise-rolling-restart.md): no request should fail.
With --via-reload the router drops each instance and takes it back through reloads, as the
OpenShift router does when a pod leaves and rejoins the service's endpoints.`,
  settings: [
    {
      name: 'viaReload',
      flag: '--via-reload',
      type: 'boolean',
      help: "take each instance out of the router's configuration and back in through reloads (lab:reload)",
    },
  ],
});

async function main() {
  const flags = parseArgs(COMMAND, process.argv.slice(2));
  const state = await withInterrupt((signal) => rollout({ signal, viaReload: flags.viaReload }));
  console.log(`\nRolled ${state.instances.length} instance(s).`);
}

runCommand(NAME, main);
