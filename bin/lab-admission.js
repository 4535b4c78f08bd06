#!/usr/bin/env node
'use strict';
// npm run lab:admission: with the real router (LAB_ROUTER=openshift), how long a new Route takes
// to be admitted and to answer its first 200, and an endpoint change to reach traffic.
const { withInterrupt } = require('../lib/core/interrupt');
const { runCommand } = require('../lib/core/run-command');
const { labCommand, parseArgs } = require('../lib/lab/common/cli');
const { readLabState, resolveLabOptions } = require('../lib/lab/index');
const { backendOf, requireSupport } = require('../lib/lab/routers');

const NAME = 'lab:admission';
const COMMAND = labCommand({
  name: NAME,
  usage: 'npm run lab:admission [-- --routes N] [-- --help]',
  description: `With the lab's real router (LAB_ROUTER=openshift), creates N Routes through the API one after another
and times each: created → Admitted in its status → first 200 through the router (which waits for
the router's next reload, RELOAD_INTERVAL). Then withdraws one instance's EndpointSlice and
publishes it again, timing when traffic stops reaching it and reaches it again. Prints p50 and p99;
lab:status shows the last figures (.lab/admission.json).`,
  settings: [
    {
      name: 'routes',
      flag: '--routes',
      arg: 'N',
      type: 'integer',
      min: 1,
      max: 200,
      default: 5,
      help: 'Routes to time',
    },
  ],
});

async function main() {
  const flags = parseArgs(COMMAND, process.argv.slice(2));
  const { labDir } = resolveLabOptions();
  const state = readLabState(labDir);
  if (!state)
    throw new Error(`no lab is running in ${labDir}: start one with LAB_ROUTER=openshift npm run lab:up`);
  const router = backendOf(state.router);
  requireSupport(router.kind, 'admission');
  console.log(
    `Timing ${flags.routes} Route(s) at the router's reload interval of ${state.router.reloadIntervalS ?? '?'} s:`,
  );
  const result = await withInterrupt((signal) =>
    router.measureAdmission(state, { samples: flags.routes, log: console.log, signal }),
  );
  const { admitted, firstOk, reloads, haproxyMb } = result;
  console.log(
    `Admitted: p50 ${admitted.p50} ms, p99 ${admitted.p99} ms. First 200: p50 ${firstOk.p50} ms, ` +
      `p99 ${firstOk.p99} ms (reload interval ${result.reloadIntervalS} s, ${result.routes} Routes).`,
  );
  console.log(
    `Reloads meanwhile: ${reloads.count}, each rendering the configuration in ${reloads.renderMs ?? '–'} ms ` +
      `and reloading HAProxy in ${reloads.reloadMs ?? '–'} ms (the router's own /metrics). HAProxy: ` +
      `${haproxyMb.serving ?? '–'} MB serving${haproxyMb.older.length ? `, ${haproxyMb.older.join(', ')} MB still finishing` : ''}.`,
  );
}

runCommand(NAME, main);
