#!/usr/bin/env node
'use strict';
// Deploys Router Lab to OpenShift: one overlay, the Redis password, the in-cluster image build,
// then waits for Redis, the cluster-forming Job and the data service, and prints the route URLs
// and the k6 commands. See --help and docs/openshift.md.
const crypto = require('node:crypto');
const path = require('node:path');
const { ROOT } = require('../lib/core/paths');
const { UsageError, defineCommand, commandLine } = require('../lib/core/settings');
const names = require('../lib/cluster/names');
const { compose } = require('../lib/cluster/kustomize');
const { OVERLAY, NAMESPACE } = require('../lib/cluster/options');
const { OcError, oc, requireLogin, currentProject, appsDomain, ensureProject } = require('../lib/cluster/oc');
const { routeUrls, printNextSteps } = require('../lib/cluster/routes');

const COMMAND = defineCommand({
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
      name: 'shardDomain',
      flag: '--shard-domain',
      arg: 'D',
      type: 'string',
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

/** The options, or { help: true }; throws UsageError. */
function parse(argv) {
  const parsed = COMMAND.parse(argv);
  if (parsed.help) return parsed;
  const opts = parsed.values;
  if (opts.shardDomain && !opts.routerTuning) {
    throw new UsageError('--shard-domain needs --router-tuning', { setting: '--shard-domain' });
  }
  if (opts.routerTuning && opts.overlay === 'sandbox') {
    throw new UsageError('--router-tuning needs cluster-admin, which the Developer Sandbox does not give', {
      setting: '--router-tuning',
    });
  }
  return opts;
}

const log = (msg) => console.log(`deploy: ${msg}`);

/** The Redis password Secret: created once with a random password, never overwritten. */
function ensureRedisSecret(namespace, dryRun) {
  if (oc(['get', 'secret', names.REDIS_SECRET, '-n', namespace], { allowFail: true }).ok) {
    log(`secret ${names.REDIS_SECRET} exists, keeping its password`);
    return;
  }
  if (dryRun) return log(`would create secret ${names.REDIS_SECRET}`);
  log(`creating secret ${names.REDIS_SECRET} with a random password`);
  // Through stdin, so the password appears in no process list.
  oc(
    [
      'create',
      'secret',
      'generic',
      names.REDIS_SECRET,
      '-n',
      namespace,
      `--from-file=${names.REDIS_SECRET_KEY}=/dev/stdin`,
    ],
    { input: crypto.randomBytes(24).toString('hex') },
  );
  oc(['label', 'secret', names.REDIS_SECRET, '-n', namespace, 'app.kubernetes.io/part-of=router-lab']);
}

/** Patches that point the IngressController at its domain (the committed one is a placeholder). */
function shardPatches(domain) {
  return [
    {
      target: { group: 'operator.openshift.io', kind: 'IngressController' },
      patch: JSON.stringify([{ op: 'replace', path: '/spec/domain', value: domain }]),
    },
  ];
}

/** The default router must not serve the benchmark routes too: they carry the shard label. */
function excludeFromDefaultRouter() {
  const patch = {
    spec: {
      routeSelector: {
        matchExpressions: [{ key: names.SHARD_LABEL, operator: 'NotIn', values: ['benchmark'] }],
      },
    },
  };
  log(`excluding ${names.SHARD_LABEL}=benchmark routes from the default IngressController`);
  oc([
    'patch',
    'ingresscontroller/default',
    '-n',
    'openshift-ingress-operator',
    '--type=merge',
    '-p',
    JSON.stringify(patch),
  ]);
}

function main() {
  const opts = commandLine(COMMAND, process.argv.slice(2), { name: 'deploy', parse });
  log(`logged in as ${requireLogin()}`);
  const namespace = opts.namespace === 'current' ? currentProject() : opts.namespace;
  if (!namespace) throw new OcError('no current project: pass --namespace NS');
  if (!opts.dryRun) ensureProject(namespace, log);

  const components = opts.routerTuning ? ['router-tuning'] : [];
  let patches = [];
  if (opts.routerTuning) {
    const domain = opts.shardDomain || (appsDomain() && `router-lab.${appsDomain()}`);
    if (!domain)
      throw new OcError(
        'cannot read the cluster apps domain (ingresses.config/cluster): pass --shard-domain',
      );
    log(`dedicated router for *.${domain}`);
    patches = shardPatches(domain);
  }
  ensureRedisSecret(namespace, opts.dryRun);

  const composed = compose({ overlay: opts.overlay, components, patches });
  try {
    if (!opts.dryRun) {
      // Its pod template names the hashed Redis ConfigMap and a Job's template cannot change:
      // the Job is idempotent, so it is simply recreated on every deploy.
      oc(['delete', 'job', names.REDIS_CLUSTER_JOB, '-n', namespace, '--ignore-not-found']);
    }
    log(
      `applying overlays/${opts.overlay}${components.length ? ` + ${components.join(', ')}` : ''} to ${namespace}`,
    );
    const applyArgs = ['apply', '-k', composed.dir, '-n', namespace];
    if (opts.dryRun) applyArgs.push('--dry-run=server');
    oc(applyArgs, { inherit: true });
  } finally {
    composed.cleanup();
  }
  if (opts.dryRun) return log('dry run: nothing changed');
  if (opts.routerTuning) excludeFromDefaultRouter();

  const t = `--timeout=${opts.timeout}s`;
  if (opts.build) {
    log('building the data-service image in the cluster (oc start-build --from-dir=data-service)');
    oc(
      [
        'start-build',
        names.APP,
        '-n',
        namespace,
        `--from-dir=${path.join(ROOT, 'data-service')}`,
        '--follow',
        '--wait',
      ],
      {
        inherit: true,
      },
    );
  }
  const redisCluster = opts.overlay !== 'sandbox';
  log('waiting for Redis');
  oc(['rollout', 'status', `statefulset/${redisCluster ? 'redis-cluster' : 'redis'}`, '-n', namespace, t], {
    inherit: true,
  });
  if (redisCluster) {
    log('waiting for the Redis Cluster Job');
    oc(['wait', '--for=condition=complete', `job/${names.REDIS_CLUSTER_JOB}`, '-n', namespace, t], {
      inherit: true,
    });
  }
  log('waiting for the data service');
  oc(['rollout', 'status', `deployment/${names.APP}`, '-n', namespace, t], { inherit: true });

  const routes = JSON.parse(oc(['get', 'routes', '-n', namespace, '-o', 'json'])).items;
  printNextSteps(routeUrls(routes), { namespace, appsDomain: appsDomain() });
}

try {
  main();
} catch (err) {
  console.error(`deploy: ${err instanceof OcError ? err.message : err.stack}`);
  process.exitCode = 1;
}
