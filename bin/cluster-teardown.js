#!/usr/bin/env node
'use strict';
// npm run cluster:teardown: removes what cluster:deploy (and cluster:k6) created. See --help.
const { defineCommand, commandLine } = require('../lib/core/settings');
const names = require('../lib/cluster/names');
const { compose } = require('../lib/cluster/kustomize');
const { OVERLAY, NAMESPACE } = require('../lib/cluster/options');
const { OcError, oc, requireLogin, currentProject } = require('../lib/cluster/oc');

const COMMAND = defineCommand({
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
        '(cluster-admin only)',
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

const log = (msg) => console.log(`teardown: ${msg}`);

/** Gives the default router its routes back, if cluster:deploy is what excluded them. */
function restoreDefaultRouter() {
  const r = oc(['get', 'ingresscontroller/default', '-n', 'openshift-ingress-operator', '-o', 'json'], {
    allowFail: true,
  });
  if (!r.ok) return;
  const selector = JSON.parse(r.stdout).spec.routeSelector;
  const ours =
    selector &&
    !selector.matchLabels &&
    (selector.matchExpressions || []).length === 1 &&
    selector.matchExpressions[0].key === names.SHARD_LABEL;
  if (!ours)
    return log('the default router has a route selector cluster:deploy did not set: leaving it alone');
  log('removing the benchmark exclusion from the default IngressController');
  oc([
    'patch',
    'ingresscontroller/default',
    '-n',
    'openshift-ingress-operator',
    '--type=json',
    '-p',
    JSON.stringify([{ op: 'remove', path: '/spec/routeSelector' }]),
  ]);
}

function main() {
  const opts = commandLine(COMMAND, process.argv.slice(2), { name: 'teardown' }).values;
  log(`logged in as ${requireLogin()}`);
  const namespace = opts.namespace === 'current' ? currentProject() : opts.namespace;
  if (!namespace) throw new OcError('no current project: pass --namespace NS');

  // The in-cluster k6 objects too, if cluster:k6 created them.
  oc(['delete', 'testrun', names.TESTRUN, '-n', namespace, '--ignore-not-found'], { allowFail: true });
  const components = ['k6-testrun', ...(opts.routerTuning ? ['router-tuning'] : [])];
  const composed = compose({ overlay: opts.overlay, components });
  try {
    log(`deleting overlays/${opts.overlay} from ${namespace}`);
    const r = oc(['delete', '-k', composed.dir, '-n', namespace, '--ignore-not-found', '--wait=false'], {
      allowFail: true,
    });
    process.stdout.write(r.stdout);
    // Kinds the cluster does not serve (no k6-operator, no cluster-admin) are not an error here.
    if (
      !r.ok &&
      !/the server doesn't have a resource type|no matches for kind|ensure CRDs are installed/.test(r.stderr)
    ) {
      throw new OcError(`oc delete -k failed: ${r.stderr.trim()}`);
    }
  } finally {
    composed.cleanup();
  }
  oc(['delete', 'buildconfig,imagestream', names.APP, '-n', namespace, '--ignore-not-found'], {
    allowFail: true,
  });
  if (opts.routerTuning) restoreDefaultRouter();
  if (!opts.keepData) {
    // StatefulSet volume claims outlive their StatefulSet on purpose; here we mean to drop them.
    const pvcs = oc(['get', 'pvc', '-n', namespace, '-o', 'name'])
      .split('\n')
      .filter((n) => /^persistentvolumeclaim\/data-redis(-cluster)?-\d+$/.test(n.trim()));
    if (pvcs.length) {
      log(`deleting ${pvcs.length} Redis volume claim(s)`);
      oc(['delete', '-n', namespace, '--wait=false', ...pvcs]);
    }
    oc(['delete', 'secret', names.REDIS_SECRET, '-n', namespace, '--ignore-not-found']);
  }
  if (opts.deleteProject) {
    log(`deleting project ${namespace}`);
    oc(['delete', 'project', namespace, '--wait=false']);
  }
  log('done');
}

try {
  main();
} catch (err) {
  console.error(`teardown: ${err instanceof OcError ? err.message : err.stack}`);
  process.exitCode = 1;
}
