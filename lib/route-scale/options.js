'use strict';
// The options of `npm run route-scale`, declared once (lib/core/settings.js): parsing, validation
// and --help come from this table. --quick turns every default into the short form.
const { defineCommand } = require('../core/settings');
const { quick, out } = require('../core/shared-settings');
const { KNOBS } = require('../lab/common/options');

const LAB_ROUTES = KNOBS.find((k) => k.name === 'routes');

/** '4,100,1000' → [4, 100, 1000]: whole numbers in `min`..`max`, each once, ascending. */
const integerList =
  ({ min, max }) =>
  (list) => {
    const values = list.map((item) => {
      const n = Number(item);
      if (!Number.isInteger(n) || n < min || n > max)
        throw new Error(`${JSON.stringify(item)} is not a whole number from ${min} to ${max}`);
      return n;
    });
    return [...new Set(values)].sort((a, b) => a - b);
  };

const SETTINGS = [
  quick('the short form of every phase (a few minutes)'),
  out(
    "where to write route-scale.json, .md, .html and raw/ (default results/<run id>); a matrix run's directory gets a route-scale section in its report",
  ),
  {
    name: 'routes',
    flag: '--routes',
    type: 'list',
    arg: 'LIST',
    default: [4, 100, 1000],
    quick: [4, 300],
    parse: integerList(LAB_ROUTES),
    help: 'the Route counts, a lab for each (LAB_ROUTES: 1,000 is the supported maximum per router)',
  },
  {
    name: 'rate',
    flag: '--rate',
    type: 'integer',
    min: 1,
    max: 10000,
    arg: 'REQ/S',
    default: 100,
    quick: 50,
    help: 'the steady load beside each change, per Route (http, edge, passthrough; keep-alive)',
  },
  {
    name: 'reloads',
    flag: '--reloads',
    type: 'integer',
    min: 1,
    max: 100,
    arg: 'N',
    default: 5,
    quick: 2,
    help: 'reloads per count, each caused by one Route change',
  },
  {
    name: 'hardStopAfterS',
    flag: '--hard-stop-after',
    type: 'integer',
    min: 1,
    max: 3600,
    arg: 'S',
    default: 10,
    quick: 3,
    help: "the router's ROUTER_HARD_STOP_AFTER: how long an old HAProxy may keep its connections after a reload",
  },
  {
    name: 'reloadIntervalS',
    flag: '--reload-interval',
    type: 'integer',
    min: 1,
    max: 120,
    arg: 'S',
    default: null,
    // Every change waits out the interval at least once; the short form waits 1 s instead of 5.
    quick: 1,
    help:
      "the router's RELOAD_INTERVAL, at most one reload per interval (on a cluster the IngressController's " +
      "tuningOptions.reloadInterval); unset, LAB_ROUTER_RELOAD_INTERVAL or the router's 5",
  },
  {
    name: 'admissions',
    flag: '--admissions',
    type: 'integer',
    min: 1,
    max: 200,
    arg: 'N',
    default: 5,
    quick: 2,
    help: 'new Routes timed to their first 200 per count',
  },
  {
    name: 'costSamples',
    flag: '--cost-samples',
    type: 'integer',
    min: 1,
    max: 20,
    arg: 'N',
    default: 3,
    quick: 1,
    help: 'samples of each reference cell (http and edge, 1k, keep-alive) per count',
  },
  {
    name: 'costDuration',
    flag: '--cost-duration',
    type: 'integer',
    min: 2,
    max: 600,
    arg: 'S',
    default: 10,
    quick: 3,
    help: 'seconds per sample of a reference cell',
  },
  {
    name: 'churnRates',
    flag: '--churn',
    type: 'list',
    arg: 'LIST',
    default: [1, 10],
    quick: [5],
    parse: integerList({ min: 1, max: 50 }),
    help: 'Routes created (and deleted a tick later) per second, a case each, beside a case without churn',
  },
  {
    name: 'churnSeconds',
    flag: '--churn-seconds',
    type: 'integer',
    min: 2,
    max: 600,
    arg: 'S',
    default: 20,
    quick: 6,
    help: 'length of each churn case',
  },
  {
    name: 'endpointChanges',
    flag: '--endpoint-changes',
    type: 'integer',
    min: 1,
    max: 50,
    arg: 'N',
    default: 3,
    quick: 1,
    help:
      "one instance's endpoint withdrawn and published again, N times as a new pod and N times as the same pod, " +
      'with the dynamic configuration manager off and on',
  },
  {
    name: 'dcm',
    flag: '--dcm',
    type: 'enum',
    choices: ['every', 'smallest', 'none'],
    arg: 'WHERE',
    default: 'every',
    // The second lab is the same at every count (a withdrawn endpoint is one server): the quick
    // form shows it once, on the smallest count, and saves the largest lab's start-up again.
    quick: 'smallest',
    help:
      'at which Route counts a second lab runs the endpoint changes with the dynamic configuration manager on: ' +
      'every count, the smallest only, or none',
  },
  {
    name: 'nextLab',
    flag: '--next-lab',
    type: 'enum',
    choices: ['after', 'beside'],
    arg: 'WHEN',
    default: 'after',
    // A real-router lab takes 10-15 s to start (300 Routes: 14 s), the API server and router
    // mostly waiting: beside this count's phases, that time is not spent twice.
    quick: 'beside',
    help:
      "when the next count's lab starts: after this count, or beside this count's cost, churn and endpoint phases " +
      '(admission, reloads and parse run alone), on free ports in LAB_DIR/route-scale-<count>',
  },
];

const COMMAND = defineCommand({
  usage: 'npm run route-scale -- [options]',
  description: `The real router (openshift-router, LAB_ROUTER=openshift) at each Route count: a lab with
LAB_ROUTES=N, then
  admission   new Routes' time to Admitted and to their first 200
  reloads     Route changes one at a time under a steady keep-alive load: the router's render and
              reload times, HAProxy's parse time, the memory of every HAProxy and how long old ones
              live (hard-stop-after); what bounded the reload
  cost        the router's µs per request on http and edge 1k keep-alive (the matrix)
  churn       Routes created and deleted at each --churn rate under the load, against no churn:
              reloads per second, requests failed, p99
  endpoints   endpoint changes with the dynamic configuration manager off and (a second lab, --dcm) on
Writes results/<run id>/route-scale.json, .md and .html after each count. It starts and stops its
own labs: none may be running. Exit code 0 when no request failed during churn, 1 otherwise.`,
  settings: SETTINGS,
  environment: { title: 'Lab knobs (for every lab it starts):', settings: KNOBS },
  epilogue: 'More: docs/benchmark.md ("The Route count")',
});

/** The router backend route-scale measures unless LAB_ROUTER names another that can. */
const ROUTE_SCALE_ROUTER = 'openshift';

module.exports = { SETTINGS, COMMAND, ROUTE_SCALE_ROUTER };
