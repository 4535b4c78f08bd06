#!/usr/bin/env node
'use strict';
// npm run sizing -- <results dir> [--tps N] [--headroom H]: the bank's last question, from a run's
// measured costs: how many router cores, data-service instances and load-generator cores a target
// TPS needs, per termination and connection mode.
const { defineCommand, commandLine } = require('../lib/core/settings');
const { runCommand } = require('../lib/core/run-command');
const { readResults } = require('../lib/results-model/document');
const { sizing } = require('../lib/results-model/derived');
const { DEFAULT_HEADROOM } = require('../lib/results-model/sizing');
const { sizingRows } = require('../lib/report/tables');
const { table: formatTable } = require('../lib/core/text');
const { parseMix, sizeMix, OPENSHIFT_ROUTER } = require('../lib/results-model/mix');
const { mixLines } = require('../lib/report/sizing-mix');

const COMMAND = defineCommand({
  usage: 'npm run sizing -- <results dir> [options]',
  description: `Projects what a target TPS needs from the CPU cost per request each role had in a run
(results.json): router cores, data-service instances (one core each), k6 cores and wrk cores, for
every cell of the run. A projection from one machine, not a cluster measurement: see
docs/sizing.md for how to read it.`,
  positionals: { count: 1, name: 'results directory' },
  settings: [
    {
      name: 'tps',
      flag: '--tps',
      arg: 'N',
      type: 'number',
      min: 1,
      default: null,
      help: "the target, in successful requests per second (unset: the run's, the bank's 5000)",
    },
    {
      name: 'headroom',
      flag: '--headroom',
      arg: 'H',
      type: 'number',
      min: 0,
      max: 0.95,
      default: DEFAULT_HEADROOM,
      help: 'the share of each role’s cores kept free',
    },
    {
      name: 'mix',
      flag: '--mix',
      arg: 'LIST',
      type: 'list',
      default: null,
      help:
        'size one router for a traffic mix: CELL=PERCENT entries, CELL a termination or more of a cell name ' +
        "(edge=60,reencrypt=30,passthrough=10; edge:4k:close=20); unnamed parts the run's 1k page and keep-alive",
    },
    {
      name: 'routerThreads',
      flag: '--router-threads',
      arg: 'N',
      type: 'integer',
      min: 1,
      max: 64,
      default: null,
      requires: 'mix',
      help: "--mix: HAProxy threads per router pod (unset: the cluster run's IngressController, else OpenShift's 4)",
    },
    {
      name: 'routerReplicas',
      flag: '--router-replicas',
      arg: 'N',
      type: 'integer',
      min: 1,
      max: 100,
      default: OPENSHIFT_ROUTER.replicas,
      requires: 'mix',
      help: "--mix: the fewest router pods (OpenShift's default: 2); the cores are spread over them, none spare",
    },
    { name: 'json', flag: '--json', type: 'boolean', help: 'print the sizing as JSON' },
  ],
});

const NAME = 'sizing';

/** --mix: one router sized for the mix's entries together. */
function mixMain(results, values, tps) {
  const cluster = results.environment.target === 'cluster';
  const threads =
    values.routerThreads ?? results.environment.clusterRouter?.threads ?? OPENSHIFT_ROUTER.threads;
  const mix = sizeMix(results, parseMix(values.mix), {
    tps,
    headroom: values.headroom,
    router: { threads, replicas: values.routerReplicas },
  });
  if (values.json) return console.log(JSON.stringify(mix, null, 2));
  console.log(mixLines(mix, { runId: results.id, target: results.environment.target, cluster }).join('\n'));
}

function main() {
  const { values, positionals } = commandLine(COMMAND, process.argv.slice(2), { name: NAME });
  const results = readResults(positionals[0]);
  const tps = values.tps ?? results.reference.bank.targetTps;
  if (values.mix) return mixMain(results, values, tps);
  const sized = sizing(results.cells, { tps, headroom: values.headroom });
  if (values.json) return console.log(JSON.stringify(sized, null, 2));
  console.log(`Sizing for ${tps} TPS from run ${results.id} (${results.environment.target}):\n`);
  console.log(formatTable(sizingRows({ ...results, sizing: sized })));
  console.log(`\nAssumptions:\n${sized.assumptions.map((a) => `  - ${a}`).join('\n')}`);
}

runCommand(NAME, main);
