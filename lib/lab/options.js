'use strict';
// The lab's knobs (LAB_* environment variables), validated once. A bad value throws an error that
// names the variable and says what it accepts; nothing is started before every knob is valid.
const { labDir } = require('../core/paths');
const { allowedCoreList } = require('../core/cpus');
const { parsePlacement } = require('./placement');

/** OpenShift 4 defaults the lab mirrors (IngressController tuning). */
const OPENSHIFT_DEFAULTS = { threads: 4, maxconn: 50000, checkIntervalMs: 5000 };

/** Every knob: its default and one line of help. The CLIs print this table with --help. */
const KNOBS = [
  ['LAB_DIR', '.lab', 'state directory: pid files, logs, certificates, haproxy.cfg, lab.json'],
  ['LAB_HTTP_PORT', '9080', "router HTTP port on 127.0.0.1 (OpenShift's 80); 0 = any free port"],
  ['LAB_HTTPS_PORT', '9443', "router HTTPS port on 127.0.0.1 (OpenShift's 443); 0 = any free port"],
  ['LAB_STATS_PORT', '1936', "router stats page and /metrics (OpenShift's stats port); 0 = any free port"],
  [
    'LAB_SERVICE_BASE_PORT',
    '18080',
    'data-service-<n> listens on base+2(n-1) (HTTP) and the next port (TLS); 0 = free ports',
  ],
  ['LAB_REDIS_PORT', '16379', 'first redis-server port (cluster: 6 consecutive ports); 0 = free ports'],
  ['LAB_REPLICAS', '2', 'data-service instances (1-16)'],
  ['LAB_REDIS', 'standalone', 'standalone | cluster (6 redis-server processes: 3 primaries + 3 replicas)'],
  ['LAB_ROUTER_THREADS', 'min(4, router cores)', "HAProxy nbthread; OpenShift 4's default is 4"],
  [
    'LAB_MAXCONN',
    '50000',
    "HAProxy maxconn (OpenShift 4's default), lowered when the fd limit cannot hold it",
  ],
  [
    'LAB_PASSTHROUGH_BALANCE',
    'random',
    'random (as the manifests annotate) | source (OpenShift default: pins a client)',
  ],
  ['LAB_CPUS', 'unset', 'core placement, e.g. router=0,service=1,redis=1 (lists: router=0-1 or service=2,3)'],
  ['LAB_CHECK_INTERVAL_MS', '1000', "router health-check interval on /readyz (OpenShift's is 5000)"],
  [
    'LAB_DRAIN_DELAY_MS',
    '4 x interval + 1000',
    'how long a SIGTERMed instance keeps serving while the router notices',
  ],
  ['LAB_LOG_LEVEL', 'warn', 'data-service LOG_LEVEL (info logs every request and costs throughput)'],
];

/** Health-check failures before the router takes a server out (HAProxy's and OpenShift's default). */
const CHECK_FALL = 3;

class LabOptionError extends Error {
  constructor(variable, problem) {
    super(`${variable} ${problem}`);
    this.name = 'LabOptionError';
    this.variable = variable;
  }
}

function read(env, name) {
  const value = env[name];
  return value === undefined || String(value).trim() === '' ? undefined : String(value).trim();
}

function integer(env, name, fallback, { min, max }) {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new LabOptionError(name, `must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

function choice(env, name, values) {
  const raw = read(env, name);
  if (raw === undefined) return values[0];
  if (!values.includes(raw)) {
    throw new LabOptionError(name, `must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/**
 * The lab's options from the environment (default process.env). Ports of 0 are resolved to free
 * ports later, at lab:up. Throws LabOptionError naming the first bad variable. `allowedCores`
 * (default: this process's affinity) is what LAB_CPUS may name; tests inject it.
 */
function resolveLabOptions(env = process.env, { allowedCores = allowedCoreList() } = {}) {
  const cpuCount = allowedCores.length;
  const placement = parsePlacement(read(env, 'LAB_CPUS'), allowedCores);
  const routerCores = placement ? placement.router.length || cpuCount : cpuCount;
  const checkIntervalMs = integer(env, 'LAB_CHECK_INTERVAL_MS', 1000, { min: 100, max: 60000 });
  const ports = {
    http: integer(env, 'LAB_HTTP_PORT', 9080, { min: 0, max: 65535 }),
    https: integer(env, 'LAB_HTTPS_PORT', 9443, { min: 0, max: 65535 }),
    stats: integer(env, 'LAB_STATS_PORT', 1936, { min: 0, max: 65535 }),
    serviceBase: integer(env, 'LAB_SERVICE_BASE_PORT', 18080, { min: 0, max: 65000 }),
    redis: integer(env, 'LAB_REDIS_PORT', 16379, { min: 0, max: 55000 }),
  };
  const fixed = Object.entries(ports).filter(([, p]) => p !== 0);
  const seen = new Map();
  for (const [name, port] of fixed) {
    if (seen.has(port)) {
      throw new LabOptionError(portKnob(name), `(${port}) is the same port as ${portKnob(seen.get(port))}`);
    }
    seen.set(port, name);
  }
  return {
    labDir: labDir(env),
    ports,
    replicas: integer(env, 'LAB_REPLICAS', 2, { min: 1, max: 16 }),
    redisMode: choice(env, 'LAB_REDIS', ['standalone', 'cluster']),
    threads: integer(env, 'LAB_ROUTER_THREADS', Math.min(OPENSHIFT_DEFAULTS.threads, routerCores), {
      min: 1,
      max: 64,
    }),
    threadsExplicit: read(env, 'LAB_ROUTER_THREADS') !== undefined,
    maxconn: integer(env, 'LAB_MAXCONN', OPENSHIFT_DEFAULTS.maxconn, { min: 1, max: 2000000 }),
    maxconnExplicit: read(env, 'LAB_MAXCONN') !== undefined,
    passthroughBalance: choice(env, 'LAB_PASSTHROUGH_BALANCE', ['random', 'source']),
    placement,
    allowedCores,
    cpuCount,
    checkIntervalMs,
    checkFall: CHECK_FALL,
    drainDelayMs: integer(env, 'LAB_DRAIN_DELAY_MS', (CHECK_FALL + 1) * checkIntervalMs + 1000, {
      min: 0,
      max: 600000,
    }),
    logLevel: choice(env, 'LAB_LOG_LEVEL', ['warn', 'error', 'info', 'debug', 'fatal', 'silent']),
  };
}

/** The environment variable behind a key of options.ports, for messages. */
function portKnob(name) {
  return {
    http: 'LAB_HTTP_PORT',
    https: 'LAB_HTTPS_PORT',
    stats: 'LAB_STATS_PORT',
    serviceBase: 'LAB_SERVICE_BASE_PORT',
    redis: 'LAB_REDIS_PORT',
  }[name];
}

/** The knob table as text, for --help. */
function knobsHelp() {
  return KNOBS.map(([name, def, help]) => `  ${name} (default: ${def})\n      ${help}`).join('\n');
}

module.exports = {
  resolveLabOptions,
  LabOptionError,
  OPENSHIFT_DEFAULTS,
  KNOBS,
  knobsHelp,
  portKnob,
};
