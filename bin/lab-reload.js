#!/usr/bin/env node
'use strict';
// npm run lab:reload: re-render the router configuration and reload HAProxy seamlessly, as the
// OpenShift router does on every route or endpoint change. Run load at the same time: no request
// should fail (npm run reliability measures it).
const { setTimeout: sleep } = require('node:timers/promises');
const { withInterrupt } = require('../lib/core/interrupt');
const { runCommand } = require('../lib/core/run-command');
const { labCommand, parseArgs } = require('../lib/lab/common/cli');
const { reload } = require('../lib/lab/index');

const NAME = 'lab:reload';
const COMMAND = labCommand({
  name: NAME,
  usage: 'npm run lab:reload [-- --count N --interval-ms MS --maxconn N] [-- --help]',
  description: `Renders the running lab's router configuration again, checks it with haproxy -c, and reloads
HAProxy as the OpenShift router's reload-haproxy does: a new process takes the listening sockets
over through the admin socket (-x, allowed by 'expose-fd listeners'), then tells the old ones to
finish (-sf): they stop accepting, finish their requests and exit. No socket is closed, so no
connection is refused. An invalid configuration changes nothing.`,
  settings: [
    {
      name: 'count',
      flag: '--count',
      type: 'integer',
      min: 1,
      max: 10000,
      default: 1,
      help: 'reloads to do',
    },
    {
      name: 'intervalMs',
      flag: '--interval-ms',
      arg: 'MS',
      type: 'integer',
      min: 0,
      max: 3600000,
      default: 1000,
      help: 'pause between two reloads',
    },
    {
      name: 'maxconn',
      flag: '--maxconn',
      type: 'integer',
      min: 1,
      max: 2000000,
      help: "set the router's maxconn from now on (lab.json records it; the exhaustion exercise lowers it)",
    },
  ],
});

async function main() {
  const flags = parseArgs(COMMAND, process.argv.slice(2));
  await withInterrupt(async (signal) => {
    for (let i = 1; i <= flags.count; i++) {
      if (i > 1) await sleep(flags.intervalMs, undefined, { signal });
      const done = await reload({ signal, overrides: flags.maxconn ? { maxconn: flags.maxconn } : {} });
      console.log(
        `reload ${i}/${flags.count}: pid ${done.pid} serves; ${done.oldPids.join(', ')} finishing (${done.ms} ms)`,
      );
    }
  });
}

runCommand(NAME, main);
