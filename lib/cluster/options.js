'use strict';
// The cluster commands' settings tables (lib/core/settings.js declarations) and their parsers:
// cluster:deploy, cluster:teardown and cluster:k6.
const { UsageError, defineCommand, derived } = require('../core/settings');
const { TERMINATIONS, CONNECTIONS, parseSize } = require('../../k6/lib/cells');
const { durationSeconds } = require('../../k6/lib/config');
const { OVERLAYS } = require('../core/paths');
const { out, PROMETHEUS_SETTINGS, checkPrometheus } = require('../core/shared-settings');
const names = require('./names');
const { CHANGE } = require('./default-router');

const OVERLAY = {
  name: 'overlay',
  flag: '--overlay',
  arg: 'NAME',
  type: 'enum',
  choices: OVERLAYS,
  default: 'all',
};

// "current" is resolved with oc when the command runs, not while parsing (--help needs no cluster).
const NAMESPACE = {
  name: 'namespace',
  flag: '--namespace',
  arg: 'NS',
  type: 'string',
  default: names.DEFAULT_NAMESPACE,
};

const DEPLOY = defineCommand({
  usage: 'npm run cluster:deploy -- [options]',
  description: `Applies overlays/<overlay> to an OpenShift project, creates the Redis password Secret if it is
missing, builds the data-service image in the cluster (binary build of data-service/), waits for
the rollouts and the Redis Cluster Job, then prints the route URLs and the k6 commands.`,
  settings: [
    { ...OVERLAY, help: 'the overlay to apply; sandbox for the Developer Sandbox' },
    {
      ...NAMESPACE,
      help: 'project to deploy to, created if missing; "current" = the current oc project, as on the Developer Sandbox',
    },
    {
      name: 'routerTuning',
      flag: '--router-tuning',
      type: 'boolean',
      help:
        'also a dedicated, tuned IngressController for the routes and exclude them from the default ' +
        'router (cluster-admin only)',
    },
    {
      name: 'yes',
      flag: '--yes',
      type: 'boolean',
      requires: 'routerTuning',
      help: "--router-tuning: agree to change the cluster's shared default router (what changes: without --yes it says)",
    },
    {
      name: 'shardDomain',
      flag: '--shard-domain',
      arg: 'D',
      type: 'string',
      requires: 'routerTuning',
      help: 'wildcard domain of that router (unset: router-lab.<apps domain>)',
    },
    {
      name: 'build',
      flag: '--no-build',
      type: 'boolean',
      default: true,
      help: 'skip the image build (an image you pushed yourself: docs/openshift.md)',
    },
    {
      name: 'timeout',
      flag: '--timeout',
      arg: 'SECONDS',
      type: 'integer',
      min: 1,
      default: 900,
      help: 'for each wait',
    },
    {
      name: 'dryRun',
      flag: '--dry-run',
      type: 'boolean',
      help: 'oc apply --dry-run=server: validate against the cluster, change nothing',
    },
  ],
  epilogue: 'Needs: oc, logged in (oc login). Leaves nothing running on this machine.',
});

/** cluster:deploy's options, or { help: true }; throws UsageError. */
function parseDeploy(argv) {
  const parsed = DEPLOY.parse(argv);
  if (parsed.help) return parsed;
  const opts = parsed.values;
  if (opts.routerTuning && opts.overlay === 'sandbox') {
    throw new UsageError('--router-tuning needs cluster-admin, which the Developer Sandbox does not give', {
      setting: '--router-tuning',
    });
  }
  // A dry run changes nothing, the default router included.
  if (opts.routerTuning && !opts.yes && !opts.dryRun) {
    throw new UsageError(`--router-tuning changes ${CHANGE}. Run again with --yes to allow it`, {
      setting: '--yes',
    });
  }
  return opts;
}

const TEARDOWN = defineCommand({
  usage: 'npm run cluster:teardown -- [options]',
  description: `Deletes the objects of overlays/<overlay> (and the components cluster:deploy or cluster:k6
added) from the project, the Redis data volumes and the Redis password Secret.`,
  settings: [
    { ...OVERLAY, help: 'the overlay that was deployed' },
    { ...NAMESPACE, help: 'project; "current" = the current oc project' },
    {
      name: 'routerTuning',
      flag: '--router-tuning',
      type: 'boolean',
      help:
        'also delete the dedicated IngressController and give the default router its routes back ' +
        '(cluster-admin only; where cluster:deploy recorded doing it, teardown does it without the flag)',
    },
    {
      name: 'keepData',
      flag: '--keep-data',
      type: 'boolean',
      help: 'keep the Redis PVCs and the password Secret (a later deploy reuses them)',
    },
    {
      name: 'deleteProject',
      flag: '--delete-project',
      type: 'boolean',
      help: 'delete the whole project afterwards',
    },
  ],
});

/** --images NAME=IMAGE,...: kustomize's images: entries (the name as the manifests write it). */
function parseImages(items) {
  return items.map((item) => {
    const m = /^([^=\s]+)=([^=\s]+)$/.exec(item);
    if (!m) throw new Error(`${JSON.stringify(item)} is not NAME=IMAGE (the name without its tag)`);
    const at = m[2].lastIndexOf(':');
    const tagged = at > m[2].lastIndexOf('/');
    return {
      name: m[1],
      newName: tagged ? m[2].slice(0, at) : m[2],
      ...(tagged ? { newTag: m[2].slice(at + 1) } : {}),
    };
  });
}

/** cluster:k6's cell: what one runner of the TestRun loads. */
const K6_CELL = [
  {
    name: 'termination',
    flag: '--termination',
    arg: 'T',
    type: 'enum',
    choices: TERMINATIONS,
    default: 'edge',
    help: 'the Route to load',
  },
  {
    name: 'page-size',
    flag: '--page-size',
    arg: 'S',
    type: 'string',
    default: '1k',
    // The page-size grammar of the whole project (1.5k is refused), kept as written for k6.
    parse: (size) => (parseSize(size), size),
    help: 'page size, e.g. 1k, 4k, 1024 (up to 1 MiB)',
  },
  {
    name: 'connection',
    flag: '--connection',
    arg: 'C',
    type: 'enum',
    choices: CONNECTIONS,
    default: 'keepalive',
    help: 'connection mode',
  },
  {
    name: 'vus',
    flag: '--vus',
    arg: 'N',
    type: 'integer',
    min: 1,
    max: 1000000,
    default: 128,
    help: 'virtual users in total (with --rate: the VUs made ready beforehand)',
  },
  {
    name: 'rate',
    flag: '--rate',
    arg: 'REQ/S',
    type: 'integer',
    min: 1,
    max: 10000000,
    default: null,
    help:
      "requests per second in total, started at that rate whatever the responses (k6's constant-arrival-rate), " +
      "split across the runners by k6's execution segments; what they could not start is counted as dropped",
  },
  {
    name: 'duration',
    flag: '--duration',
    arg: 'D',
    type: 'string',
    default: '60s',
    parse: (text) => {
      if (!durationSeconds(text))
        throw new Error(`${JSON.stringify(text)} is not a k6 duration such as 60s or 5m`);
      return text;
    },
    help: 'k6 duration',
  },
];

const K6 = defineCommand({
  usage: 'npm run cluster:k6 -- [options]',
  description: `Applies the k6-testrun component (the k6/ scripts as a ConfigMap, a results PVC and a k6-operator
TestRun), runs one router-matrix cell with N parallel runners against the project's Routes, waits
for it, copies every runner's k6 summary to the results directory and merges them into
results.json: request rates add up, percentiles come from the merged latency distribution.
Render it with npm run report -- DIR.`,
  settings: [
    {
      ...NAMESPACE,
      help: 'project where npm run cluster:deploy put the lab; "current" = the current oc project',
    },
    {
      name: 'parallelism',
      flag: '--parallelism',
      arg: 'N',
      type: 'integer',
      min: 1,
      max: 1000,
      default: 4,
      help: 'k6 runner pods; the VUs are split between them',
    },
    ...K6_CELL,
    {
      name: 'separate',
      flag: '--separate',
      type: 'boolean',
      help: 'one runner per node (anti-affinity); needs as many nodes as runners',
    },
    {
      name: 'runnerCpu',
      flag: '--runner-cpu',
      arg: 'CPU',
      type: 'string',
      parse: (cpu) => {
        if (!/^(\d+m|\d+(\.\d+)?)$/.test(cpu))
          throw new Error(`${JSON.stringify(cpu)} is not a CPU quantity such as 1, 0.5 or 250m`);
        return cpu;
      },
      help: "each runner's CPU request (unset: the TestRun's 1); smaller fits more runners on a node",
    },
    {
      name: 'images',
      flag: '--images',
      arg: 'NAME=IMAGE,...',
      type: 'list',
      parse: parseImages,
      help:
        'the runner and starter from a registry of your own (disconnected clusters), e.g. ' +
        "docker.io/grafana/k6=registry.example/k6:1.8.1; lab:status prints the lab's",
    },
    {
      name: 'insecure',
      flag: '--insecure',
      type: 'boolean',
      help: 'skip TLS verification (routers whose certificate no cluster CA signs)',
    },
    {
      name: 'timeout',
      flag: '--timeout',
      arg: 'SECONDS',
      type: 'integer',
      min: 1,
      max: 86400,
      default: derived('duration + 600', (v) => durationSeconds(v.duration) + 600),
      help: 'how long to wait for the run',
    },
    out('where to copy the summaries (unset: results/cluster-<time>)'),
    // The router's, the data service's and the runners' CPU over the run (docs/openshift.md).
    ...PROMETHEUS_SETTINGS,
    {
      name: 'merge',
      flag: '--merge',
      arg: 'DIR',
      type: 'string',
      help: 'only merge the runner summaries already in DIR into DIR/results.json (no cluster needed)',
    },
  ],
  epilogue: `Needs: oc, logged in; the k6-operator installed (OperatorHub: "k6 Operator"); the lab deployed.
Ctrl-C deletes the TestRun, which stops the load.`,
});

/** cluster:k6's options (plus durationSeconds), or { help: true }; throws UsageError naming the option. */
function parseK6(argv) {
  const parsed = K6.parse(argv);
  if (parsed.help) return parsed;
  const seconds = durationSeconds(parsed.values.duration);
  // --merge reads nothing from Prometheus: the figures saved with the run come with it.
  if (!parsed.values.merge) checkPrometheus({ ...parsed.values, duration: seconds });
  return { ...parsed.values, durationSeconds: seconds };
}

module.exports = { DEPLOY, parseDeploy, TEARDOWN, K6, parseK6 };
