'use strict';
// The options of `npm run matrix` (and, passed through, `npm run lab`), declared once: parsing,
// validation and --help come from SETTINGS. `--matrix FILE` replays a run: the options block a
// results.json recorded is read through the same declarations, under the command line.
const fs = require('node:fs');
const {
  CELLS,
  TERMINATIONS,
  CONNECTIONS,
  TLS_SESSIONS,
  PROTOCOLS,
  DEFAULT_SIZES,
  DEFAULT_NAMESPACE,
  urlVariable,
} = require('../../k6/lib/cells');
const { UsageError, defineCommand, readArgv, readEnv, readObject, resolve } = require('../core/settings');
const { quick, out, PROMETHEUS_SETTINGS, checkPrometheus } = require('../core/shared-settings');
const { KNOBS } = require('../lab/common/options');
const { THRESHOLDS } = require('../results-model/verdicts');
const { cellMatcher, chooseTokens } = require('./plan');
const { defaultMaxVus } = require('../../k6/lib/generator');

/** The setting that holds a route's explicit URL: urlHttp, urlEdge, … */
const urlSetting = (termination) => `url${termination[0].toUpperCase()}${termination.slice(1)}`;

// Meaningless against the lab, refused there when chosen: the lab has its own routes and CA.
const CLUSTER_ONLY = {
  onlyWith: { target: 'cluster' },
  because: 'the lab has its own routes and verifies edge and re-encrypt against its own CA',
};

// `recorded`: the key of results.json's options block that holds the setting (for --matrix FILE).
const SETTINGS = [
  {
    name: 'matrixFile',
    flag: '--matrix',
    arg: 'FILE',
    type: 'string',
    help:
      "replay a run: FILE is a results.json or its 'options' block; options given here override " +
      "the file's",
  },
  { ...quick('short cells for CI: 1 sample of 3s, 1s warm-up (22 cells in ~2.5 min)'), recorded: 'quick' },
  {
    name: 'cells',
    flag: '--cells',
    arg: 'LIST',
    type: 'list',
    // Checked here so that a bad pattern is refused before anything starts (and named in a file).
    parse: (patterns) => patterns.map((p) => (cellMatcher(p), p)),
    recorded: 'cells',
    help:
      `a subset: comma list of ${CELLS.shape}, '*' allowed in any part, e.g. ` +
      'edge:1k:keepalive,http:*:close,edge:1k:close:resumed',
  },
  {
    name: 'sizes',
    flag: '--sizes',
    arg: 'LIST',
    type: 'list',
    default: DEFAULT_SIZES,
    parse: (sizes) => chooseTokens('pageSize', sizes),
    recorded: 'sizes',
    help: 'page sizes, e.g. 1k,4k,16k,64k',
  },
  {
    name: 'tlsSessions',
    flag: '--tls-session',
    arg: 'LIST',
    type: 'list',
    choices: TLS_SESSIONS,
    default: TLS_SESSIONS,
    recorded: 'tlsSessions',
    help:
      'how close cells through a TLS route begin each connection: full (a full handshake every time: ' +
      'k6) and/or resumed (the TLS session of the connection before resumed, as Red Hat measured its ' +
      '4.x close figures: wrk, closed model; skipped under --rate; haload for passthrough in the lab, ' +
      "where wrk, which sends the URL's host as SNI, cannot reach it)",
  },
  {
    name: 'protocols',
    flag: '--protocol',
    arg: 'LIST',
    type: 'list',
    choices: PROTOCOLS,
    default: ['h1'],
    recorded: 'protocols',
    help:
      'the HTTP version each cell through a TLS route forces: h1 and/or h2 (the router must offer h2 ' +
      'over ALPN: LAB_ROUTER_HTTP2=true in the lab, default-enable-http2 on a cluster); --cells can ' +
      'name h2 cells too (edge:1k:keepalive:h2)',
  },
  {
    name: 'duration',
    flag: '--duration',
    arg: 'SECONDS',
    type: 'integer',
    min: 1,
    default: 10,
    quick: 3,
    recorded: 'durationSeconds',
    help: 'length of one sample',
  },
  {
    name: 'samples',
    flag: '--samples',
    arg: 'N',
    type: 'integer',
    min: 1,
    default: 3,
    quick: 1,
    recorded: 'samples',
    help: 'samples per cell; percentiles are computed from the merged distribution of all samples, never averaged',
  },
  {
    name: 'warmup',
    flag: '--warmup',
    arg: 'SECONDS',
    type: 'integer',
    min: 0,
    default: 3,
    quick: 1,
    recorded: 'warmupSeconds',
    help: 'unrecorded run before each cell; 0 = none',
  },
  {
    name: 'cooldown',
    flag: '--cooldown',
    arg: 'SECONDS',
    type: 'number',
    min: 0,
    default: 2,
    quick: 0.5,
    recorded: 'cooldownSeconds',
    help: 'pause after each cell',
  },
  {
    name: 'vus',
    flag: '--vus',
    arg: 'N',
    type: 'integer',
    min: 1,
    default: 32,
    recorded: 'vus',
    help: 'closed model: N virtual users, each with its own connection(s)',
  },
  {
    name: 'rate',
    flag: '--rate',
    arg: 'N',
    type: 'integer',
    min: 1,
    recorded: 'rate',
    help:
      'open model instead: N requests/s (constant-arrival-rate), --vus VUs preallocated; the cell then ' +
      'reports dropped iterations and VU exhaustion (--cross-check is skipped: k6 is held to the rate, ' +
      'wrk is not; resumed close cells are skipped: they need wrk, which has no open model)',
  },
  {
    name: 'maxVus',
    flag: '--max-vus',
    arg: 'N',
    type: 'integer',
    min: 1,
    recorded: 'maxVus',
    requires: 'rate',
    because: 'a VU ceiling is for the open model',
    // Computed by the runner (k6/lib/generator.js) when unset, so opts.maxVus stays null here.
    help: 'VU ceiling for --rate; unset: max(vus, rate/10)',
  },
  {
    name: 'target',
    flag: '--target',
    type: 'enum',
    choices: ['lab', 'cluster'],
    default: 'lab',
    help:
      'lab: reads <LAB_DIR>/lab.json; cluster: needs --apps-domain (and --namespace) or ' +
      'URL_HTTP/URL_EDGE/URL_PASSTHROUGH/URL_REENCRYPT',
  },
  {
    name: 'appsDomain',
    ...CLUSTER_ONLY,
    flag: '--apps-domain',
    env: 'APPS_DOMAIN',
    arg: 'D',
    type: 'string',
    help: 'cluster apps domain, e.g. apps.example.com',
  },
  {
    name: 'namespace',
    ...CLUSTER_ONLY,
    flag: '--namespace',
    env: 'NAMESPACE',
    arg: 'NS',
    type: 'string',
    default: DEFAULT_NAMESPACE,
    help: 'cluster namespace',
  },
  // A route's URL named explicitly (a sharded router, a custom host): the k6 scripts' variables.
  ...TERMINATIONS.map((termination) => ({
    name: urlSetting(termination),
    env: urlVariable(termination),
    type: 'string',
    help: `cluster: the ${termination} route's URL, e.g. ${termination === 'http' ? 'http' : 'https'}://host`,
  })),
  {
    name: 'sslCertFile',
    env: 'SSL_CERT_FILE',
    type: 'string',
    help: 'cluster: the CA bundle k6 trusts when --ca-file is not given (else the system store)',
  },
  {
    name: 'caFile',
    flag: '--ca-file',
    arg: 'FILE',
    type: 'string',
    help: 'CA bundle to trust for edge/re-encrypt (lab: the lab CA; cluster: SSL_CERT_FILE or the system store)',
  },
  {
    name: 'insecure',
    ...CLUSTER_ONLY,
    flag: '--insecure',
    type: 'boolean',
    help:
      'cluster only: skip TLS verification on every route (a router with a self-signed certificate); ' +
      'recorded in results.json. The lab always verifies edge and re-encrypt against the lab CA',
  },
  // The cluster through its API and its monitoring (docs/openshift.md).
  {
    name: 'kubeconfig',
    ...CLUSTER_ONLY,
    flag: '--kubeconfig',
    arg: 'FILE',
    type: 'string',
    help:
      "cluster: read the Routes (and the router's IngressController) through this kubeconfig's " +
      'current context; used when no --apps-domain or URL is given (default: $KUBECONFIG or ~/.kube/config)',
  },
  {
    name: 'routerAddress',
    ...CLUSTER_ONLY,
    flag: '--router-address',
    arg: 'ADDR',
    type: 'string',
    help: 'cluster: connect to this router address for every route host instead of DNS (the lab: 127.0.0.1)',
  },
  {
    name: 'httpPort',
    ...CLUSTER_ONLY,
    flag: '--http-port',
    arg: 'PORT',
    type: 'integer',
    min: 1,
    max: 65535,
    default: 80,
    help: "cluster: the router's HTTP port, for Routes read through the API",
  },
  {
    name: 'httpsPort',
    ...CLUSTER_ONLY,
    flag: '--https-port',
    arg: 'PORT',
    type: 'integer',
    min: 1,
    max: 65535,
    default: 443,
    help: "cluster: the router's HTTPS port, for Routes read through the API",
  },
  // The cluster's CPU and the router's metrics from Prometheus (docs/openshift.md).
  ...PROMETHEUS_SETTINGS.map((s) => ({ ...s, ...CLUSTER_ONLY })),
  {
    name: 'prometheusProfile',
    ...CLUSTER_ONLY,
    flag: '--prometheus-profile',
    type: 'enum',
    choices: ['openshift', 'lab'],
    default: 'openshift',
    help: "the series to read: openshift (cAdvisor's container CPU) or lab (the lab's process exporter)",
  },
  {
    name: 'routerThreads',
    ...CLUSTER_ONLY,
    flag: '--router-threads',
    arg: 'N',
    type: 'integer',
    min: 1,
    help: "cluster: the router's threads per pod, where its IngressController cannot be read",
  },
  {
    name: 'routerReplicas',
    ...CLUSTER_ONLY,
    flag: '--router-replicas',
    arg: 'N',
    type: 'integer',
    min: 1,
    help: "cluster: the router's pods, where its IngressController cannot be read",
  },
  {
    name: 'crossCheck',
    flag: '--cross-check',
    type: 'boolean',
    recorded: 'crossCheck',
    help:
      'also drive each cell with a second generator (wrk on keep-alive; haload on passthrough, h2 and close cells) ' +
      `and show both side by side; a gap over ${THRESHOLDS.crossCheckGap * 100} % is flagged`,
  },
  {
    name: 'costCurve',
    flag: '--cost-curve',
    type: 'boolean',
    recorded: 'costCurve',
    help:
      'also drive each keep-alive cell with haload flat out and at 1/4, 1/2 and 3/4 of that rate, and fit the ' +
      "router's CPU as fixed cores + µs per request (npm run sizing then uses the cost at the target's rate)",
  },
  {
    name: 'dashboard',
    flag: '--dashboard',
    type: 'boolean',
    help: "also export k6's web dashboard HTML for each sample",
  },
  out('results directory (unset: results/<run id>)'),
  {
    name: 'report',
    flag: '--no-report',
    type: 'boolean',
    default: true,
    help: 'write results.json and the raw summaries only',
  },
];

/** What a matrix run reads from the environment, for --help: LAB_DIR (the lab's lab.json) and the cluster's names. */
const ENVIRONMENT = {
  title: 'Environment (the command line wins):',
  settings: [...KNOBS.filter((k) => k.env === 'LAB_DIR'), ...SETTINGS.filter((s) => s.env)],
};

const COMMAND = defineCommand({
  usage: 'npm run matrix -- [options]',
  description: `Runs the router matrix: termination {${TERMINATIONS.join(', ')}} × page size × connection
{${CONNECTIONS.join(', ')}} (close cells through a TLS route × TLS session {${TLS_SESSIONS.join(', ')}}),
each cell its own k6 process (wrk for resumed sessions: warm-up, samples, cool-down), against the
local lab (npm run lab:up) or a cluster, then writes results/<run id>/ with results.json,
report.md, report.html and the raw summaries.`,
  settings: SETTINGS,
  environment: ENVIRONMENT,
});

/** Keys of a recorded options block that are derived from others, not settings of their own. */
const DERIVED_KEYS = ['executor'];

/**
 * The --matrix FILE layer: the options block of a results.json (or the whole file), validated by
 * SETTINGS; messages name the file and the key.
 */
function matrixFileLayer(file) {
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    const why = err.code === 'ENOENT' ? 'no such file' : err.message;
    throw new UsageError(`--matrix ${file}: ${why}`, { setting: '--matrix' });
  }
  const block = doc && typeof doc.options === 'object' && doc.options !== null ? doc.options : doc;
  if (!block || typeof block !== 'object' || Array.isArray(block)) {
    throw new UsageError(`--matrix ${file}: not a results.json nor its options block`, {
      setting: '--matrix',
    });
  }
  const layer = readObject(SETTINGS, block, { source: file, keyOf: (s) => s.recorded, ignore: DERIVED_KEYS });
  // maxVus is derived unless it was given: vus in the closed model, defaultMaxVus(vus, rate) in
  // the open one. Replayed as if given, it would cap a later --rate.
  const open = block.rate !== null && block.rate !== undefined;
  if (!open || block.maxVus === defaultMaxVus(block.vus, block.rate)) delete layer.values.maxVus;
  return layer;
}

/**
 * Parses argv (with --matrix FILE under it) into the matrix options, or { help: true }; throws
 * UsageError with a message that names the bad option (or the file and key).
 */
function parseMatrixArgs(argv, env = process.env) {
  const cli = readArgv(SETTINGS, argv);
  if (cli.help) return { help: true };
  const layers = [cli.layer];
  if (cli.layer.values.matrixFile !== undefined) {
    const file = matrixFileLayer(cli.layer.values.matrixFile);
    // --quick on the command line shortens the replay too: the file's lengths give way to it.
    if (cli.layer.values.quick) {
      for (const s of SETTINGS) if (s.quick !== undefined) delete file.values[s.name];
    }
    layers.push(file);
  }
  layers.push(readEnv(SETTINGS, env));
  const { values: v } = resolve(SETTINGS, layers);
  if (v.maxVus !== null && v.maxVus < v.vus) {
    throw new UsageError(
      `--max-vus (${v.maxVus}) must be at least --vus (${v.vus}), the VUs k6 preallocates`,
      {
        setting: '--max-vus',
      },
    );
  }
  checkPrometheus(v);
  v.urls = Object.fromEntries(TERMINATIONS.map((t) => [t, v[urlSetting(t)]]).filter(([, url]) => url));
  return v;
}

/** The load model of every cell: { executor, maxVus } (maxVus as k6 will use it). */
function loadModel(opts) {
  if (!opts.rate) return { executor: 'constant-vus', maxVus: opts.vus };
  return { executor: 'constant-arrival-rate', maxVus: opts.maxVus || defaultMaxVus(opts.vus, opts.rate) };
}

/**
 * The options block results.json records: every setting declared with a `recorded` key, plus the
 * load model they imply. --matrix FILE reads it back through the same declarations.
 */
function recordedOptions(opts) {
  const { executor, maxVus } = loadModel(opts);
  const block = Object.fromEntries(SETTINGS.filter((s) => s.recorded).map((s) => [s.recorded, opts[s.name]]));
  return { ...block, executor, maxVus };
}

module.exports = {
  SETTINGS,
  ENVIRONMENT,
  COMMAND,
  UsageError,
  parseMatrixArgs,
  loadModel,
  recordedOptions,
};
