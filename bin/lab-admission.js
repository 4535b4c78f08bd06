#!/usr/bin/env node
'use strict';
// npm run lab:admission: with a router configured from the API (LAB_ROUTER=openshift or gateway),
// how long a new route takes to be accepted and to answer its first 200, and an endpoint change.
const { withInterrupt } = require('../lib/core/interrupt');
const { runCommand } = require('../lib/core/run-command');
const { labCommand, parseArgs } = require('../lib/lab/common/cli');
const { readLabState, resolveLabOptions } = require('../lib/lab/index');
const { backendOf, requireSupport } = require('../lib/lab/routers');

const NAME = 'lab:admission';
const COMMAND = labCommand({
  name: NAME,
  usage: 'npm run lab:admission [-- --routes N] [-- --help]',
  description: `With a router configured from the API, creates N routes one after another and times each:
created → accepted in its status → first 200 through the router.
  LAB_ROUTER=openshift  Routes; Admitted, then served at the router's next reload (RELOAD_INTERVAL)
  LAB_ROUTER=gateway    HTTPRoutes on the Gateway; Accepted by istiod, then served once istiod
                        has pushed Envoy its new configuration
Then withdraws one instance's EndpointSlice and publishes it again, timing when traffic stops
reaching it and reaches it again. Prints p50 and p99; lab:status shows the last figures
(.lab/admission.json).`,
  settings: [
    {
      name: 'routes',
      flag: '--routes',
      arg: 'N',
      type: 'integer',
      min: 1,
      max: 200,
      default: 5,
      help: 'routes to time',
    },
  ],
});

async function main() {
  const flags = parseArgs(COMMAND, process.argv.slice(2));
  const { labDir } = resolveLabOptions();
  const state = readLabState(labDir);
  if (!state)
    throw new Error(
      `no lab is running in ${labDir}: start one with LAB_ROUTER=openshift (or gateway) npm run lab:up`,
    );
  const router = backendOf(state.router);
  requireSupport(router.kind, 'admission');
  console.log(`Timing ${flags.routes} route(s):`);
  const result = await withInterrupt((signal) =>
    router.measureAdmission(state, { samples: flags.routes, log: console.log, signal }),
  );
  const { admitted, firstOk } = result;
  console.log(
    `Admitted: p50 ${admitted.p50} ms, p99 ${admitted.p99} ms. First 200: p50 ${firstOk.p50} ms, ` +
      `p99 ${firstOk.p99} ms (waiting for ${result.waitsFor}; ${result.routes} routes served).`,
  );
  for (const line of result.details) console.log(line);
}

runCommand(NAME, main);
