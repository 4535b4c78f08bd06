'use strict';
// The options of `npm run reliability`, declared once (lib/core/settings.js): parsing,
// validation and --help come from this table. --quick turns every default into the short form.
// Requiring it loads no scenario: --help works before anything else is installed.
const { defineCommand } = require('../core/settings');
const { quick, out } = require('../core/shared-settings');
const { TERMINATIONS } = require('../../k6/lib/cells');
const { KNOBS } = require('../lab/common/options');
const { ATTACKS } = require('./attacks');

/**
 * The scenarios, in the order the catalogue (./scenarios.js) runs them: named here so that the
 * settings need not load them (test/reliability/options.unit.test.js holds both to the same names).
 */
const SCENARIO_NAMES = [
  'router-reload',
  'endpoints',
  'pod-delete',
  'redis-kill',
  'durability',
  'redis-failover',
  'redis-pod-delete',
  'hostile',
  'exhaustion',
  'soak',
];

const SETTINGS = [
  quick('the short form of every scenario (a few minutes in all)'),
  out(
    "where to write reliability.json, reliability.md and raw/ (default results/<run id>); a matrix run's directory gets a reliability section in its report",
  ),
  {
    name: 'scenarios',
    flag: '--scenarios',
    type: 'list',
    arg: 'NAMES',
    choices: SCENARIO_NAMES,
    default: SCENARIO_NAMES,
    help: 'which scenarios to run',
  },
  {
    name: 'terminations',
    flag: '--terminations',
    type: 'list',
    arg: 'LIST',
    choices: TERMINATIONS,
    default: [...TERMINATIONS],
    help: 'the Routes the load goes through',
  },
  {
    name: 'rate',
    flag: '--rate',
    type: 'integer',
    min: 1,
    max: 100000,
    arg: 'REQ/S',
    default: 200,
    quick: 100,
    help: 'steady load during faults, requests per second',
  },
  {
    name: 'reloads',
    flag: '--reloads',
    type: 'integer',
    min: 1,
    max: 1000,
    arg: 'N',
    default: 10,
    quick: 3,
    help: 'router-reload: reloads per case',
  },
  {
    name: 'reloadIntervalMs',
    flag: '--reload-interval-ms',
    type: 'integer',
    min: 0,
    max: 600000,
    arg: 'MS',
    default: 1000,
    quick: 500,
    help: 'router-reload: pause between two reloads',
  },
  {
    name: 'compareNoHandover',
    flag: '--compare-no-handover',
    type: 'boolean',
    help: 'router-reload: also reload without handing the sockets over (-x), close mode, for comparison',
  },
  {
    name: 'outageMs',
    flag: '--outage-ms',
    type: 'integer',
    min: 0,
    max: 600000,
    arg: 'MS',
    default: 3000,
    quick: 1000,
    help: 'redis-kill, durability: how long Redis stays down after its SIGKILL',
  },
  {
    name: 'failoverWindowMs',
    flag: '--failover-window-ms',
    type: 'integer',
    min: 1000,
    max: 600000,
    arg: 'MS',
    default: 8000,
    help: 'redis-failover: the longest failover the load must cover (the lab sets cluster-node-timeout 2000)',
  },
  {
    name: 'writers',
    flag: '--writers',
    type: 'integer',
    min: 1,
    max: 256,
    arg: 'N',
    default: 4,
    help: 'durability: concurrent keep-alive clients writing records',
  },
  {
    name: 'attacks',
    flag: '--attacks',
    type: 'list',
    arg: 'NAMES',
    choices: ATTACKS.map((a) => a.name),
    default: ATTACKS.map((a) => a.name),
    help: 'hostile: which bad clients',
  },
  {
    name: 'attackMs',
    flag: '--attack-ms',
    type: 'integer',
    min: 500,
    max: 600000,
    arg: 'MS',
    default: 14000,
    quick: 3000,
    help: "hostile: how long each attack lasts at most (past 12 s, slow clients must have been cut by the router's and the service's 10 s timeouts)",
  },
  {
    name: 'exhaustMaxconn',
    flag: '--exhaust-maxconn',
    type: 'integer',
    min: 1,
    max: 10000,
    arg: 'N',
    default: 10,
    help: "exhaustion: the router's maxconn during the maxconn case",
  },
  {
    name: 'exhaustConnections',
    flag: '--exhaust-connections',
    type: 'integer',
    min: 2,
    max: 10000,
    arg: 'N',
    default: 100,
    help: 'exhaustion: concurrent clients (a connection per request) offered to that maxconn',
  },
  {
    name: 'exhaustRate',
    flag: '--exhaust-rate',
    type: 'integer',
    min: 1,
    max: 100000,
    arg: 'REQ/S',
    default: 2000,
    quick: 1000,
    help: 'exhaustion: close-mode rate (a new connection per request)',
  },
  {
    name: 'exhaustSeconds',
    flag: '--exhaust-seconds',
    type: 'integer',
    min: 1,
    max: 3600,
    arg: 'S',
    default: 30,
    quick: 5,
    help: 'exhaustion: length of each case',
  },
  {
    name: 'soakSeconds',
    flag: '--soak',
    type: 'seconds',
    min: 2,
    arg: 'DURATION',
    default: 60,
    quick: 20,
    help: 'soak: how long (10m for the full soak)',
  },
  {
    name: 'soakRate',
    flag: '--soak-rate',
    type: 'integer',
    min: 1,
    max: 100000,
    arg: 'REQ/S',
    default: 50,
    help: 'soak: requests per second through each termination',
  },
];

const COMMAND = defineCommand({
  usage: 'npm run reliability -- [options]',
  // The scenarios' titles and promises are theirs: read from the catalogue when --help asks.
  description:
    () => `Fault scenarios against the running lab (or a fresh one it starts and stops), each under a
steady load, each with a verdict against what was promised and the figures behind it:
${require('./scenarios')
  .map((s) => `  ${s.name.padEnd(16)} ${s.title}: ${s.promise}`)
  .join('\n')}
Writes results/<run id>/reliability.json and reliability.md. Ctrl-C stops the load and the fault
and leaves the lab as it was. Exit code 0 when every promise held, 1 when one was broken.`,
  settings: SETTINGS,
  environment: { title: 'Lab knobs (when it starts the lab):', settings: KNOBS },
  epilogue: 'More: docs/reliability.md',
});

module.exports = { SETTINGS, COMMAND, SCENARIO_NAMES };
