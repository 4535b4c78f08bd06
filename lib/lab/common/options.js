'use strict';
// The lab's knobs (LAB_* environment variables), declared once: resolveLabOptions validates them
// and the lab commands' --help lists them from the same table. A bad value throws an error that
// names the variable and says what it accepts; nothing is started before every knob is valid.
const fs = require('node:fs');
const path = require('node:path');
const { labDir, ROOT, OVERLAYS } = require('../../core/paths');
const { allowedCoreList } = require('../../core/cpus');
const { findTool, isExecutable } = require('../../core/tools');
const { RELEASES } = require('../haproxy/tls-profile');
const { ROUTER_PINS } = require('../../setup/openshift-router-build');
const { UsageError, derived, checkSettings, readEnv, resolve } = require('../../core/settings');
const { parsePlacement } = require('./placement');
const { ROUTER_KINDS, DEFAULT_ROUTER, routerKind, releaseHaproxy } = require('./router-kinds');

/** OpenShift 4 defaults the lab mirrors (IngressController tuning). */
const OPENSHIFT_DEFAULTS = { threads: 4, maxconn: 50000, checkIntervalMs: 5000 };

/** Health-check failures before the router takes a server out (HAProxy's and OpenShift's default). */
const CHECK_FALL = 3;

/** Redis AOF fsync policies (`appendfsync`), the values LAB_REDIS_FSYNC takes. */
const FSYNC_POLICIES = ['always', 'everysec', 'no'];
const REDIS_MANIFEST = path.join(ROOT, 'redis', 'config', 'redis-standalone.conf');

/** The fsync policy the cluster manifests give Redis: the lab's default, so both persist alike. */
function manifestFsync(file = REDIS_MANIFEST) {
  const policy = /^appendfsync\s+(\S+)/m.exec(fs.readFileSync(file, 'utf8'));
  if (!policy || !FSYNC_POLICIES.includes(policy[1])) {
    throw new Error(`${file} sets no appendfsync policy the lab knows (${FSYNC_POLICIES.join(', ')})`);
  }
  return policy[1];
}

/** Meaningful with the real router only (refused with the template router when set). */
const REAL_ROUTER = { onlyWith: { router: 'openshift' } };

const port = (name, env, fallback, help, max = 65535) => ({
  name,
  env,
  type: 'integer',
  min: 0,
  max,
  default: fallback,
  help,
});

/** Every knob, in the order --help lists them and errors are found. */
const KNOBS = checkSettings([
  {
    name: 'labDir',
    env: 'LAB_DIR',
    type: 'string',
    default: derived('.lab', () => labDir({})),
    parse: (dir) => labDir({ LAB_DIR: dir }),
    help: 'state directory: pid files, logs, certificates, haproxy.cfg, lab.json',
  },
  port('http', 'LAB_HTTP_PORT', 9080, "router HTTP port on 127.0.0.1 (OpenShift's 80); 0 = any free port"),
  port(
    'https',
    'LAB_HTTPS_PORT',
    9443,
    "router HTTPS port on 127.0.0.1 (OpenShift's 443); 0 = any free port",
  ),
  port(
    'stats',
    'LAB_STATS_PORT',
    1936,
    "router stats page and /metrics (OpenShift's stats port); 0 = any free port",
  ),
  port(
    'serviceBase',
    'LAB_SERVICE_BASE_PORT',
    18080,
    'data-service-<n> listens on base+2(n-1) (HTTP) and the next port (TLS); 0 = free ports',
    65000,
  ),
  port(
    'redis',
    'LAB_REDIS_PORT',
    16379,
    'first redis-server port (cluster: 6 consecutive ports); 0 = free ports',
    55000,
  ),
  {
    name: 'router',
    env: 'LAB_ROUTER',
    type: 'enum',
    choices: Object.keys(ROUTER_KINDS),
    default: DEFAULT_ROUTER,
    help: Object.values(ROUTER_KINDS)
      .map((k) => `${k.kind}: ${k.title}`)
      .join('; '),
  },
  {
    name: 'overlay',
    env: 'LAB_OVERLAY',
    type: 'enum',
    // sandbox is `all` cut to the Developer Sandbox's quota: nothing the lab would serve differently.
    choices: OVERLAYS.filter((overlay) => overlay !== 'sandbox'),
    default: 'all',
    help: "LAB_ROUTER=openshift: the overlay kubectl applies (overlays/<name>): its Routes are the lab's",
  },
  {
    name: 'reloadIntervalS',
    env: 'LAB_ROUTER_RELOAD_INTERVAL',
    type: 'integer',
    min: 1,
    max: 600,
    default: 5,
    help: "LAB_ROUTER=openshift: the router's RELOAD_INTERVAL in seconds (OpenShift's default is 5)",
  },
  {
    name: 'hardStopAfterS',
    env: 'LAB_ROUTER_HARD_STOP_AFTER',
    ...REAL_ROUTER,
    type: 'integer',
    min: 1,
    max: 86400,
    default: null,
    help:
      "LAB_ROUTER=openshift: the router's ROUTER_HARD_STOP_AFTER in seconds, how long an old HAProxy may " +
      'finish its connections after a reload (unset, as by default on OpenShift: until they close)',
  },
  {
    name: 'idleClose',
    env: 'LAB_ROUTER_IDLE_CLOSE',
    ...REAL_ROUTER,
    type: 'enum',
    choices: ['immediate', 'deferred'],
    default: 'immediate',
    help:
      "LAB_ROUTER=openshift: the IngressController's idleConnectionTerminationPolicy at a reload: immediate " +
      "(OpenShift's default) closes an idle keep-alive connection at once, deferred after its next response " +
      '(option idle-close-on-response)',
  },
  {
    name: 'configManager',
    env: 'LAB_ROUTER_DCM',
    ...REAL_ROUTER,
    type: 'boolean',
    default: false,
    help:
      "LAB_ROUTER=openshift: the router's dynamic configuration manager (ROUTER_HAPROXY_CONFIG_MANAGER): " +
      'endpoint changes through the runtime API instead of a reload',
  },
  {
    name: 'pods',
    env: 'LAB_PODS',
    ...REAL_ROUTER,
    type: 'boolean',
    default: false,
    because: 'the pods run on a node whose EndpointSlices only the real router reads',
    help:
      "LAB_ROUTER=openshift: a Kubernetes node in the lab (kubelet, containerd) runs the overlay's pods, " +
      'images built here (setup --with pods); docs/pods.md',
  },
  {
    name: 'routes',
    env: 'LAB_ROUTES',
    type: 'integer',
    min: 4,
    max: 10000,
    default: 4,
    help:
      'Routes served: the four data-service Routes and N - 4 more spread over the terminations, each ' +
      'with its own Service and backend (1,000 is the supported maximum per router)',
  },
  {
    name: 'replicas',
    env: 'LAB_REPLICAS',
    type: 'integer',
    min: 1,
    max: 16,
    default: 2,
    help: 'data-service instances',
  },
  {
    name: 'redisMode',
    env: 'LAB_REDIS',
    type: 'enum',
    choices: ['standalone', 'cluster'],
    default: 'standalone',
    help: 'cluster: 6 redis-server processes (3 primaries + 3 replicas)',
  },
  {
    name: 'redisFsync',
    env: 'LAB_REDIS_FSYNC',
    type: 'enum',
    choices: FSYNC_POLICIES,
    // Read when needed, not when this file is required.
    default: derived(
      () => manifestFsync(),
      () => manifestFsync(),
    ),
    help: "Redis append-only file (AOF) fsync policy; the default is the manifests' (redis/config/)",
  },
  {
    name: 'redisWaitReplicas',
    env: 'LAB_REDIS_WAIT_REPLICAS',
    type: 'integer',
    min: 0,
    max: 5,
    default: 0,
    help: "the instances' REDIS_WAIT_REPLICAS: acknowledge a write once that many replicas have it (cluster)",
  },
  {
    name: 'threads',
    env: 'LAB_ROUTER_THREADS',
    type: 'integer',
    min: 1,
    max: 64,
    default: derived(`min(${OPENSHIFT_DEFAULTS.threads}, router cores)`, ({ placement }, { allowedCores }) =>
      Math.min(OPENSHIFT_DEFAULTS.threads, (placement && placement.router.length) || allowedCores.length),
    ),
    help: `HAProxy nbthread; OpenShift 4's default is ${OPENSHIFT_DEFAULTS.threads}`,
  },
  {
    name: 'maxconn',
    env: 'LAB_MAXCONN',
    type: 'integer',
    min: 1,
    max: 2000000,
    default: OPENSHIFT_DEFAULTS.maxconn,
    help: "HAProxy maxconn (OpenShift 4's default), lowered when the fd limit cannot hold it",
  },
  {
    name: 'http2',
    env: 'LAB_ROUTER_HTTP2',
    type: 'boolean',
    default: false,
    help:
      "true mirrors the IngressController's default-enable-http2: h2 and http/1.1 over ALPN on edge " +
      'and re-encrypt (each then gets its own route certificate, as h2 needs on OpenShift)',
  },
  {
    name: 'openshiftRelease',
    env: 'LAB_OPENSHIFT_RELEASE',
    type: 'enum',
    choices: RELEASES,
    default: derived(
      Object.values(ROUTER_KINDS)
        .map((k) => `${k.defaultRelease} with LAB_ROUTER=${k.kind}`)
        .join(', '),
      ({ router }) => routerKind(router).defaultRelease,
    ),
    help:
      'the OpenShift release whose Intermediate TLS profile (ciphers, from 4.22 groups) the router uses; ' +
      `with LAB_ROUTER=openshift also whose router runs (${Object.keys(ROUTER_PINS).join(', ')})`,
  },
  {
    name: 'haproxy',
    env: 'LAB_HAPROXY',
    type: 'string',
    // After router and openshiftRelease: derived defaults are computed in the table's order.
    default: derived(
      "with LAB_ROUTER=openshift setup's build of the branch its release ships (" +
        Object.entries(ROUTER_PINS)
          .map(([release, pin]) => `${release}: ${pin.haproxy}`)
          .join(', ') +
        "), else the pinned build in .tools/bin, else the system's",
      (v) => {
        const build = releaseHaproxy(v);
        if (!build) return findTool('haproxy');
        return isExecutable(build.bin) ? build.bin : null;
      },
    ),
    parse: (file) => {
      const full = path.resolve(file);
      if (!fs.existsSync(full) || !isExecutable(full)) throw new Error(`${full} is not an executable file`);
      return full;
    },
    help: 'the HAProxy binary the router runs',
  },
  {
    name: 'passthroughBalance',
    env: 'LAB_PASSTHROUGH_BALANCE',
    onlyWith: { router: 'template' },
    because: "with LAB_ROUTER=openshift the Route's haproxy.router.openshift.io/balance annotation decides",
    type: 'enum',
    choices: ['random', 'source', 'roundrobin', 'leastconn'],
    default: derived("the Route manifest's haproxy.router.openshift.io/balance", () => null),
    help: "overrides the passthrough Route's balance annotation (the router's own default is source)",
  },
  {
    name: 'sniHop',
    env: 'LAB_ROUTER_SNI_HOP',
    onlyWith: { router: 'template' },
    because: "the real router's template always takes the hop",
    type: 'enum',
    choices: ['unix', 'none'],
    default: 'unix',
    help:
      "unix: edge and re-encrypt go public_ssl (SNI peek) -> PROXY over a unix socket -> fe_sni, as the router's " +
      'template; none: fe_sni binds the HTTPS port itself (no passthrough Route), to measure that hop',
  },
  {
    name: 'routerKey',
    env: 'LAB_ROUTER_KEY',
    type: 'enum',
    choices: ['rsa2048', 'ecdsa-p256'],
    default: 'rsa2048',
    help: "the router's default certificate key: rsa2048 (what OpenShift's ingress operator generates) or ecdsa-p256",
  },
  {
    name: 'placement',
    env: 'LAB_CPUS',
    type: 'string',
    default: null,
    parse: (text, { allowedCores }) => parsePlacement(text, allowedCores),
    help: 'core placement, e.g. router=0,service=1,redis=1 (lists: router=0-1 or service=2,3)',
  },
  {
    name: 'checkIntervalMs',
    env: 'LAB_CHECK_INTERVAL_MS',
    type: 'integer',
    min: 100,
    max: 60000,
    default: 1000,
    help: `router health-check interval on /readyz (OpenShift's is ${OPENSHIFT_DEFAULTS.checkIntervalMs})`,
  },
  {
    name: 'drainDelayMs',
    env: 'LAB_DRAIN_DELAY_MS',
    type: 'integer',
    min: 0,
    max: 600000,
    default: derived(
      `${CHECK_FALL + 1} x interval + 1000`,
      (v) => (CHECK_FALL + 1) * v.checkIntervalMs + 1000,
    ),
    help: 'how long a SIGTERMed instance keeps serving while the router notices',
  },
  {
    name: 'logLevel',
    env: 'LAB_LOG_LEVEL',
    type: 'enum',
    choices: ['warn', 'error', 'info', 'debug', 'fatal', 'silent'],
    default: 'warn',
    help: 'data-service LOG_LEVEL (info logs every request and costs throughput)',
  },
]);

const PORTS = ['http', 'https', 'stats', 'serviceBase', 'redis'];

/** A backend that runs a release's own router (the real one) runs only those the lab builds. */
function checkRouterRelease(v) {
  const { kind, releases } = routerKind(v.router);
  if (!releases || releases.includes(v.openshiftRelease)) return;
  throw new LabOptionError(
    `LAB_OPENSHIFT_RELEASE=${v.openshiftRelease}: LAB_ROUTER=${kind} runs the router of ` +
      `${releases.join(' or ')} only`,
    { setting: 'LAB_OPENSHIFT_RELEASE' },
  );
}

/** How the router's HAProxy was chosen, when the knobs chose it: LAB_HAPROXY, or its release's branch. */
function haproxySource(v, given) {
  if (given.has('haproxy')) return 'LAB_HAPROXY';
  const build = releaseHaproxy(v);
  return build ? `release-${v.openshiftRelease}'s ${build.branch}` : null;
}

/** A bad LAB_* value: a usage error that names the variable. */
class LabOptionError extends UsageError {
  constructor(message, { setting }) {
    super(message, { setting });
    this.name = 'LabOptionError';
    this.variable = setting;
  }
}

/**
 * The lab's options from the environment (default process.env). Ports of 0 are resolved to free
 * ports later, at lab:up. Throws LabOptionError naming the first bad variable. `allowedCores`
 * (default: this process's affinity) is what LAB_CPUS may name; tests inject it.
 */
function resolveLabOptions(env = process.env, { allowedCores = allowedCoreList() } = {}) {
  let knobs;
  try {
    knobs = resolve(KNOBS, [readEnv(KNOBS, env)], { allowedCores });
  } catch (err) {
    if (err instanceof UsageError) throw new LabOptionError(err.message, { setting: err.setting });
    throw err;
  }
  const { values: v, given } = knobs;
  checkRouterRelease(v);
  const ports = Object.fromEntries(PORTS.map((name) => [name, v[name]]));
  const seen = new Map();
  for (const [name, p] of Object.entries(ports).filter(([, p]) => p !== 0)) {
    if (seen.has(p)) {
      const variable = portKnob(name);
      throw new LabOptionError(`${variable} (${p}) is the same port as ${portKnob(seen.get(p))}`, {
        setting: variable,
      });
    }
    seen.set(p, name);
  }
  return {
    labDir: v.labDir,
    router: v.router,
    overlay: v.overlay,
    reloadIntervalS: v.reloadIntervalS,
    hardStopAfterS: v.hardStopAfterS,
    configManager: v.configManager,
    idleClose: v.idleClose,
    pods: v.pods,
    routes: v.routes,
    ports,
    replicas: v.replicas,
    redisMode: v.redisMode,
    redisFsync: v.redisFsync,
    redisWaitReplicas: v.redisWaitReplicas,
    threads: v.threads,
    threadsExplicit: given.has('threads'),
    maxconn: v.maxconn,
    maxconnExplicit: given.has('maxconn'),
    haproxy: v.haproxy,
    haproxySource: haproxySource(v, given),
    http2: v.http2,
    openshiftRelease: v.openshiftRelease,
    passthroughBalance: v.passthroughBalance,
    sniHop: v.sniHop,
    routerKey: v.routerKey,
    placement: v.placement,
    allowedCores,
    cpuCount: allowedCores.length,
    checkIntervalMs: v.checkIntervalMs,
    checkFall: CHECK_FALL,
    drainDelayMs: v.drainDelayMs,
    logLevel: v.logLevel,
  };
}

/** The environment variable behind a key of options.ports, for messages. */
function portKnob(name) {
  return KNOBS.find((k) => k.name === name && PORTS.includes(name)).env;
}

/** Every LAB_*_PORT knob: 0 in each gives a lab that runs beside another (free ports at lab:up). */
const PORT_KNOBS = PORTS.map(portKnob);

module.exports = {
  resolveLabOptions,
  PORT_KNOBS,
  LabOptionError,
  OPENSHIFT_DEFAULTS,
  FSYNC_POLICIES,
  manifestFsync,
  KNOBS,
  portKnob,
};
