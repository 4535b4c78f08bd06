'use strict';
// The options of `npm run reliability`, declared once (lib/core/settings.js): parsing,
// validation and --help come from this table. --quick turns every default into the short form.
const { derived, defineCommand } = require('../core/settings');
const { TERMINATIONS } = require('../../k6/lib/cells');
const { KNOBS } = require('../lab/shared/options');
const SCENARIOS = require('./scenarios');
const { selectScenarios } = require('./run');
const { ATTACKS } = require('./attacks');

const quick = (full, short) => derived(`${full}, --quick ${short}`, (v) => (v.quick ? short : full));

const SETTINGS = [
  {
    name: 'quick',
    flag: '--quick',
    type: 'boolean',
    help: 'the short form of every scenario (a few minutes in all)',
  },
  {
    name: 'out',
    flag: '--out',
    type: 'string',
    arg: 'DIR',
    help: "where to write reliability.json, reliability.md and raw/ (default results/<run id>); a matrix run's directory gets a reliability section in its report",
  },
  {
    name: 'scenarios',
    flag: '--scenarios',
    type: 'list',
    arg: 'NAMES',
    default: SCENARIOS.map((s) => s.name),
    // The runner's own check, so that the command line and a caller get the same message.
    parse: (names) => (selectScenarios(names), names),
    help: `which scenarios to run: ${SCENARIOS.map((s) => s.name).join(', ')}`,
  },
  {
    name: 'terminations',
    flag: '--terminations',
    type: 'list',
    arg: 'LIST',
    default: [...TERMINATIONS],
    parse: (list) => {
      const bad = list.filter((t) => !TERMINATIONS.includes(t));
      if (bad.length)
        throw new Error(`unknown termination ${bad.join(', ')} (known: ${TERMINATIONS.join(', ')})`);
      return list;
    },
    help: 'the Routes the load goes through',
  },
  {
    name: 'rate',
    flag: '--rate',
    type: 'integer',
    min: 1,
    max: 100000,
    arg: 'REQ/S',
    default: quick(200, 100),
    help: 'steady load during faults, requests per second',
  },
  {
    name: 'reloads',
    flag: '--reloads',
    type: 'integer',
    min: 1,
    max: 1000,
    arg: 'N',
    default: quick(10, 3),
    help: 'router-reload: reloads per case',
  },
  {
    name: 'reloadIntervalMs',
    flag: '--reload-interval-ms',
    type: 'integer',
    min: 0,
    max: 600000,
    arg: 'MS',
    default: quick(1000, 500),
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
    default: quick(3000, 1000),
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
    default: ATTACKS.map((a) => a.name),
    parse: (names) => {
      const unknown = names.filter((n) => !ATTACKS.some((a) => a.name === n));
      if (unknown.length)
        throw new Error(
          `unknown attack ${unknown.join(', ')} (known: ${ATTACKS.map((a) => a.name).join(', ')})`,
        );
      return names;
    },
    help: 'hostile: which bad clients',
  },
  {
    name: 'attackMs',
    flag: '--attack-ms',
    type: 'integer',
    min: 500,
    max: 600000,
    arg: 'MS',
    default: quick(14000, 3000),
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
    default: quick(2000, 1000),
    help: 'exhaustion: close-mode rate (a new connection per request)',
  },
  {
    name: 'exhaustSeconds',
    flag: '--exhaust-seconds',
    type: 'integer',
    min: 1,
    max: 3600,
    arg: 'S',
    default: quick(30, 5),
    help: 'exhaustion: length of each case',
  },
  {
    name: 'soakSeconds',
    flag: '--soak',
    type: 'seconds',
    min: 2,
    arg: 'DURATION',
    default: derived('60s, --quick 20s', (v) => (v.quick ? 20 : 60)),
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
  description: `Fault scenarios against the running lab (or a fresh one it starts and stops), each under a
steady load, each with a verdict against what was promised and the figures behind it:
${SCENARIOS.map((s) => `  ${s.name.padEnd(16)} ${s.title}: ${s.promise}`).join('\n')}
Writes results/<run id>/reliability.json and reliability.md. Ctrl-C stops the load and the fault
and leaves the lab as it was. Exit code 0 when every promise held, 1 when one was broken.`,
  settings: SETTINGS,
  environment: { title: 'Lab knobs (when it starts the lab):', settings: KNOBS },
  epilogue: 'More: docs/reliability.md',
});

module.exports = { SETTINGS, COMMAND };
