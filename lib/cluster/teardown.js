'use strict';
// npm run cluster:teardown's work: deletes what cluster:deploy and cluster:k6 created, the Redis
// volumes and password unless kept, and the project if asked.
const names = require('./names');
const { compose } = require('./kustomize');
const { OcError, oc, requireLogin, resolveNamespace } = require('./oc');
const { readRecord, restoreDefaultRouter } = require('./default-router');

const log = (msg) => console.log(`teardown: ${msg}`);

// Kinds the cluster does not serve (no k6-operator, no cluster-admin) are not an error here.
const UNSERVED = /the server doesn't have a resource type|no matches for kind|ensure CRDs are installed/;

/** The overlay's objects and the components', with the in-cluster k6 objects and the build. */
function deleteObjects(opts, namespace) {
  oc(['delete', 'testrun', names.TESTRUN, '-n', namespace, '--ignore-not-found'], { allowFail: true });
  const components = ['k6-testrun', ...(opts.routerTuning ? ['router-tuning'] : [])];
  const composed = compose({ overlay: opts.overlay, components });
  try {
    log(`deleting overlays/${opts.overlay} from ${namespace}`);
    const r = oc(['delete', '-k', composed.dir, '-n', namespace, '--ignore-not-found', '--wait=false'], {
      allowFail: true,
    });
    process.stdout.write(r.stdout);
    if (!r.ok && !UNSERVED.test(r.stderr)) throw new OcError(`oc delete -k failed: ${r.stderr.trim()}`);
  } finally {
    composed.cleanup();
  }
  oc(['delete', 'buildconfig,imagestream', names.APP, '-n', namespace, '--ignore-not-found'], {
    allowFail: true,
  });
}

/** The Redis volume claims and password Secret. */
function deleteData(namespace) {
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

/** Tears the lab down with cluster:teardown's options (lib/cluster/options.js TEARDOWN). */
function teardown(opts) {
  log(`logged in as ${requireLogin({ ocOnly: true })}`);
  const namespace = resolveNamespace(opts.namespace);
  // What deploy changed outside the project, as it recorded it: its router too, without the flag.
  const record = readRecord(namespace);
  const routerTuning = opts.routerTuning || Boolean(record?.routerTuning);
  deleteObjects({ ...opts, routerTuning }, namespace);
  if (routerTuning) restoreDefaultRouter(namespace, log, record);
  if (!opts.keepData) deleteData(namespace);
  if (opts.deleteProject) {
    log(`deleting project ${namespace}`);
    oc(['delete', 'project', namespace, '--wait=false']);
  }
  log('done');
}

module.exports = { teardown };
