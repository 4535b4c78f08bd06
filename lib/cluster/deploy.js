'use strict';
// npm run cluster:deploy's work: the Redis password, one overlay (with router tuning if asked),
// the in-cluster image build, the waits, and the route URLs with the next commands.
const crypto = require('node:crypto');
const path = require('node:path');
const { ROOT } = require('../core/paths');
const names = require('./names');
const { compose } = require('./kustomize');
const { OcError, oc, requireLogin, resolveNamespace, appsDomain, ensureProject } = require('./oc');
const { routeUrls, printNextSteps } = require('./routes');
const { excludeFromDefaultRouter } = require('./default-router');

const log = (msg) => console.log(`deploy: ${msg}`);

/** The Redis password Secret: created once with a random password, never overwritten. */
function ensureRedisSecret(namespace, dryRun) {
  if (oc(['get', 'secret', names.REDIS_SECRET, '-n', namespace], { allowFail: true }).ok) {
    log(`secret ${names.REDIS_SECRET} exists, keeping its password`);
    return;
  }
  if (dryRun) return log(`would create secret ${names.REDIS_SECRET}`);
  log(`creating secret ${names.REDIS_SECRET} with a random password`);
  const from = `--from-file=${names.REDIS_SECRET_KEY}=/dev/stdin`;
  // Through stdin, so the password appears in no process list.
  oc(['create', 'secret', 'generic', names.REDIS_SECRET, '-n', namespace, from], {
    input: crypto.randomBytes(24).toString('hex'),
  });
  oc(['label', 'secret', names.REDIS_SECRET, '-n', namespace, 'app.kubernetes.io/part-of=router-lab']);
}

/** Patches that point the IngressController at its domain (the committed one is a placeholder). */
function shardPatches(opts) {
  const domain = opts.shardDomain || (appsDomain() && `router-lab.${appsDomain()}`);
  if (!domain)
    throw new OcError('cannot read the cluster apps domain (ingresses.config/cluster): pass --shard-domain');
  log(`dedicated router for *.${domain}`);
  const patch = JSON.stringify([{ op: 'replace', path: '/spec/domain', value: domain }]);
  return [{ target: { group: 'operator.openshift.io', kind: 'IngressController' }, patch }];
}

/** oc apply of the overlay and its components (server-side dry run with --dry-run). */
function apply(opts, namespace) {
  const components = opts.routerTuning ? ['router-tuning'] : [];
  const patches = opts.routerTuning ? shardPatches(opts) : [];
  ensureRedisSecret(namespace, opts.dryRun);
  const composed = compose({ overlay: opts.overlay, components, patches });
  try {
    if (!opts.dryRun) {
      // Its pod template names the hashed Redis ConfigMap and a Job's template cannot change:
      // the Job is idempotent, so it is simply recreated on every deploy.
      oc(['delete', 'job', names.REDIS_CLUSTER_JOB, '-n', namespace, '--ignore-not-found']);
    }
    const added = components.length ? ` + ${components.join(', ')}` : '';
    log(`applying overlays/${opts.overlay}${added} to ${namespace}`);
    const applyArgs = ['apply', '-k', composed.dir, '-n', namespace];
    if (opts.dryRun) applyArgs.push('--dry-run=server');
    oc(applyArgs, { inherit: true });
  } finally {
    composed.cleanup();
  }
}

/** The image build, then the waits for Redis, its cluster-forming Job and the data service. */
function buildAndWait(opts, namespace) {
  const t = `--timeout=${opts.timeout}s`;
  const ocShown = (args) => oc([...args, '-n', namespace], { inherit: true });
  if (opts.build) {
    log('building the data-service image in the cluster (oc start-build --from-dir=data-service)');
    ocShown([
      'start-build',
      names.APP,
      `--from-dir=${path.join(ROOT, 'data-service')}`,
      '--follow',
      '--wait',
    ]);
  }
  const redisCluster = opts.overlay !== 'sandbox';
  log('waiting for Redis');
  ocShown(['rollout', 'status', `statefulset/${redisCluster ? 'redis-cluster' : 'redis'}`, t]);
  if (redisCluster) {
    log('waiting for the Redis Cluster Job');
    ocShown(['wait', '--for=condition=complete', `job/${names.REDIS_CLUSTER_JOB}`, t]);
  }
  log('waiting for the data service');
  ocShown(['rollout', 'status', `deployment/${names.APP}`, t]);
}

/** Deploys the lab with cluster:deploy's options (lib/cluster/options.js DEPLOY). */
function deploy(opts) {
  log(`logged in as ${requireLogin({ ocOnly: true })}`);
  const namespace = resolveNamespace(opts.namespace);
  if (!opts.dryRun) ensureProject(namespace, log);
  apply(opts, namespace);
  if (opts.dryRun) return log('dry run: nothing changed');
  if (opts.routerTuning) excludeFromDefaultRouter(namespace, log);
  buildAndWait(opts, namespace);
  const routes = JSON.parse(oc(['get', 'routes', '-n', namespace, '-o', 'json'])).items;
  printNextSteps(routeUrls(routes), { namespace, appsDomain: appsDomain() });
}

module.exports = { deploy };
