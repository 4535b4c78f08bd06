#!/usr/bin/env node
'use strict';
// Deploys Router Lab to OpenShift: one overlay, the Redis password, the in-cluster image build,
// then waits for Redis, the cluster-forming Job and the data service, and prints the route URLs
// and the k6 commands. See --help and docs/openshift.md.
const crypto = require('node:crypto');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { ROOT } = require('../lib/core/paths');
const names = require('../lib/cluster/names');
const { OVERLAYS, compose } = require('../lib/cluster/kustomize');
const { OcError, oc, requireLogin, currentProject, appsDomain, ensureProject } = require('../lib/cluster/oc');
const { routeUrls, printNextSteps } = require('../lib/cluster/routes');

const USAGE = `Usage: npm run cluster:deploy -- [options]

Applies overlays/<overlay> to an OpenShift project, creates the Redis password Secret if it is
missing, builds the data-service image in the cluster (binary build of data-service/), waits for
the rollouts and the Redis Cluster Job, then prints the route URLs and the k6 commands.

Options:
  --overlay NAME        ${OVERLAYS.join('|')} (default all; sandbox for the Developer Sandbox)
  --namespace NS        project to deploy to (default ${names.DEFAULT_NAMESPACE}, created if missing;
                        "current" = the current oc project, as on the Developer Sandbox)
  --router-tuning       also a dedicated, tuned IngressController for the routes and exclude them
                        from the default router (cluster-admin only)
  --shard-domain D      wildcard domain of that router (default router-lab.<apps domain>)
  --no-build            skip the image build (an image you pushed yourself: docs/openshift.md)
  --timeout SECONDS     for each wait (default 900)
  --dry-run             oc apply --dry-run=server: validate against the cluster, change nothing
  -h, --help            this text

Needs: oc, logged in (oc login). Leaves nothing running on this machine.`;

function parse(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      overlay: { type: 'string', default: 'all' },
      namespace: { type: 'string', default: names.DEFAULT_NAMESPACE },
      'router-tuning': { type: 'boolean', default: false },
      'shard-domain': { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      timeout: { type: 'string', default: '900' },
      'dry-run': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (!OVERLAYS.includes(values.overlay)) {
    throw new OcError(`--overlay ${values.overlay}: choose one of ${OVERLAYS.join(', ')}`);
  }
  const timeout = Number(values.timeout);
  if (!Number.isInteger(timeout) || timeout <= 0)
    throw new OcError(`--timeout ${values.timeout}: a number of seconds`);
  if (values['shard-domain'] && !values['router-tuning'])
    throw new OcError('--shard-domain needs --router-tuning');
  if (values['router-tuning'] && values.overlay === 'sandbox') {
    throw new OcError('--router-tuning needs cluster-admin, which the Developer Sandbox does not give');
  }
  return { ...values, timeout };
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
  const opts = parse(process.argv.slice(2));
  if (opts.help) return console.log(USAGE);
  log(`logged in as ${requireLogin()}`);
  const namespace = opts.namespace === 'current' ? currentProject() : opts.namespace;
  if (!namespace) throw new OcError('no current project: pass --namespace NS');
  if (!opts['dry-run']) ensureProject(namespace, log);

  const components = opts['router-tuning'] ? ['router-tuning'] : [];
  let patches = [];
  if (opts['router-tuning']) {
    const domain = opts['shard-domain'] || (appsDomain() && `router-lab.${appsDomain()}`);
    if (!domain)
      throw new OcError(
        'cannot read the cluster apps domain (ingresses.config/cluster): pass --shard-domain',
      );
    log(`dedicated router for *.${domain}`);
    patches = shardPatches(domain);
  }
  ensureRedisSecret(namespace, opts['dry-run']);

  const composed = compose({ overlay: opts.overlay, components, patches });
  try {
    if (!opts['dry-run']) {
      // Its pod template names the hashed Redis ConfigMap and a Job's template cannot change:
      // the Job is idempotent, so it is simply recreated on every deploy.
      oc(['delete', 'job', names.REDIS_CLUSTER_JOB, '-n', namespace, '--ignore-not-found']);
    }
    log(
      `applying overlays/${opts.overlay}${components.length ? ` + ${components.join(', ')}` : ''} to ${namespace}`,
    );
    const applyArgs = ['apply', '-k', composed.dir, '-n', namespace];
    if (opts['dry-run']) applyArgs.push('--dry-run=server');
    oc(applyArgs, { inherit: true });
  } finally {
    composed.cleanup();
  }
  if (opts['dry-run']) return log('dry run: nothing changed');
  if (opts['router-tuning']) excludeFromDefaultRouter();

  const t = `--timeout=${opts.timeout}s`;
  if (!opts['no-build']) {
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
  console.error(
    `deploy: ${err instanceof OcError || err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? err.message : err.stack}`,
  );
  process.exitCode = 1;
}
