#!/usr/bin/env node
'use strict';
// npm run route-scale: the real router at 4, 100 and 1,000 Routes (--routes): reloads, memory,
// per-request cost, churn and endpoint changes, each count in a lab of its own.
const path = require('node:path');
const { runCommand, reportError } = require('../lib/core/run-command');
const { withInterrupt } = require('../lib/core/interrupt');
const { commandLine } = require('../lib/core/settings');
const { COMMAND, ROUTE_SCALE_ROUTER } = require('../lib/route-scale/options');

const NAME = 'route-scale';

async function main() {
  const { values: opts } = commandLine(COMMAND, process.argv.slice(2), { name: NAME });
  return withInterrupt(
    async (signal) => {
      try {
        // Required only now: setup may just have installed what these load.
        const { setupIfNeeded } = require('../lib/setup/install');
        const { routerKind } = require('../lib/lab/common/router-kinds');
        const router = routerKind(process.env.LAB_ROUTER || ROUTE_SCALE_ROUTER);
        await setupIfNeeded(router.setupFor, {
          required: router.tools,
          again: 'npm run route-scale',
          signal,
        });
        const { runRouteScale } = require('../lib/route-scale/run');
        const { dir, doc } = await runRouteScale(opts, { signal });
        const verdict = doc.pass ? 'No request was lost to Route churn' : 'Requests were lost to Route churn';
        console.log(`\n${verdict}: ${path.join(dir, 'route-scale.md')}`);
        return doc.pass ? 0 : 1;
      } catch (err) {
        if (err.run) console.error(`  what finished: ${path.join(err.run.dir, 'route-scale.md')}`);
        return reportError(NAME, err, signal);
      }
    },
    { message: `\n${NAME}: interrupted, stopping the load and taking the lab down` },
  );
}

runCommand(NAME, main);
