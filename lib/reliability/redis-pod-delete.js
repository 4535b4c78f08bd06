'use strict';
// Scenario (a lab with pods): a Redis pod deleted at once (grace 0, as a node lost) while writers keep
// the id of every acknowledged write; its StatefulSet starts it again on the same volume (standalone)
// or its replica is promoted (Redis Cluster: a primary's pod). Every acknowledged id is read back.
const { setTimeout: sleep } = require('node:timers/promises');
const names = require('../core/manifest-names');
const { redisCliWith } = require('../core/redis-server');
const { labClient, listPods, deletePod, waitReplaced } = require('../lab/node/pod-faults');
const { NAMESPACE } = require('../lab/common/routes');
const { recordsUrl, untilWritesSucceed } = require('./redis-outage');
const { startWriters, readBack } = require('./write-client');
const { checkScenario, observedCase } = require('./scenario');

const LEAD_MS = 1500;
const TAIL_MS = 1000;
const SELECTOR = 'app.kubernetes.io/name=redis';

/** The StatefulSet's pods (not the formation Job's), and the Redis password the service uses. */
async function redisPods(admin) {
  const pods = (await listPods(admin, SELECTOR)).filter(
    (p) => p.metadata.labels['statefulset.kubernetes.io/pod-name'],
  );
  const secret = await admin.get(`/api/v1/namespaces/${NAMESPACE}/secrets/${names.REDIS_SECRET}`);
  const password = Buffer.from(secret.data[names.REDIS_SECRET_KEY], 'base64').toString();
  return { pods, password };
}

/** The pod to delete: the only one (standalone), or a primary (Redis Cluster). */
async function victimOf(pods, password) {
  for (const pod of pods) {
    const role = await redisCliWith(6379, password, ['role'], { host: pod.status.podIP });
    if (role.startsWith('master')) return pod;
  }
  throw new Error(`no primary among the Redis pods (${pods.map((p) => p.metadata.name).join(', ')})`);
}

/** Deletes the victim after LEAD_MS and waits for the StatefulSet and for writes; timed from `start`. */
async function podOutage(ctx, { start, signal }) {
  const admin = labClient(ctx.state());
  const { pods, password } = await redisPods(admin);
  const victim = await victimOf(pods, password);
  await sleep(LEAD_MS, undefined, { signal });
  const uid = await deletePod(admin, victim.metadata.name, { graceSeconds: 0 });
  const killedAt = Date.now();
  ctx.log(`    pod ${victim.metadata.name} deleted at once at ${killedAt - start} ms`);
  // Both from the deletion: writes may come back (a promoted replica) before the pod does.
  let restartedAt;
  const [recoveryMs] = await Promise.all([
    untilWritesSucceed(ctx.state(), { from: killedAt, timeoutMs: 120000, signal }),
    // The formation Job's pod carries the same label but is never ready: it does not count.
    waitReplaced(admin, { selector: SELECTOR, count: pods.length, goneUid: uid, signal }).then(
      () => (restartedAt = Date.now()),
    ),
  ]);
  ctx.log(
    `    ${victim.metadata.name} ready again at ${restartedAt - start} ms; writes acknowledged ${recoveryMs} ms after the deletion`,
  );
  return {
    name: victim.metadata.name,
    injected: [
      { atMs: killedAt - start, what: `pod ${victim.metadata.name} deleted (grace 0)` },
      { atMs: restartedAt - start, what: `${victim.metadata.name} ready again (the StatefulSet's new pod)` },
    ],
    killedAt,
    recoveryMs,
  };
}

module.exports = checkScenario({
  name: 'redis-pod-delete',
  title: 'A Redis pod deleted with writes acknowledged',
  promise:
    'every acknowledged write survives (standalone: the append-only file on its volume); on Redis Cluster the loss is reported',
  describe: (opts) =>
    `${opts.writers} clients POST records through the http Route; after ${LEAD_MS} ms a Redis pod ` +
    '(standalone: the one; Redis Cluster: a primary) is deleted with grace 0 and its StatefulSet starts it ' +
    'again on the same volume; every acknowledged id read back',
  async inject(ctx) {
    const { opts } = ctx;
    const state = ctx.state();
    const url = recordsUrl(state);
    ctx.log(`  ${opts.writers} writers, Redis ${state.redis.mode}`);
    const start = Date.now();
    const writers = startWriters({ url, concurrency: opts.writers });
    let outage;
    let stats;
    try {
      outage = await podOutage(ctx, { start, signal: ctx.signal });
      await sleep(TAIL_MS, undefined, { signal: ctx.signal });
    } finally {
      stats = await writers.stop();
    }
    const acknowledged = [...writers.acknowledged];
    ctx.log(`    reading back ${acknowledged.length} acknowledged records`);
    const back = await readBack({ url, ids: acknowledged.map((a) => a.id) });
    const missing = new Set(back.missing);
    const lost = acknowledged.filter((a) => missing.has(a.id));
    const failed = Object.values(writers.failures).reduce((a, b) => a + b, 0);
    return {
      cases: [
        observedCase({
          name: `${state.redis.mode}: ${outage.name} deleted`,
          injected: outage.injected,
          load: {
            workload: `POST /api/records from ${opts.writers} keep-alive clients via http (Node, every 201 id kept)`,
            requests: stats.requests,
            failed,
            errors: writers.failures,
            p50: null,
            p99: null,
            max: null,
          },
          errors: writers.failures,
          recoveryMs: outage.recoveryMs,
          dataLost: {
            count: lost.length,
            acknowledged: acknowledged.length,
            windowMs: lost.length ? outage.killedAt - Math.min(...lost.map((a) => a.at)) : 0,
            ids: lost.slice(0, 20).map((a) => a.id),
            unknown: back.unknown.length,
          },
          figures: { cluster: state.redis.mode === 'cluster' },
        }),
      ],
    };
  },
  verdict(observation) {
    const reasons = [];
    const notes = [];
    for (const c of observation.cases) {
      const lost = c.dataLost;
      if (!lost.acknowledged) reasons.push(`${c.name}: no write was acknowledged: nothing was tested`);
      if (c.recoveryMs === null) reasons.push(`${c.name}: writes were not acknowledged again within 120 s`);
      if (!lost.count) continue;
      const what = `${c.name}: ${lost.count} of ${lost.acknowledged} acknowledged writes lost`;
      if (c.figures.cluster) notes.push(`${what} in the failover (asynchronous replication)`);
      else reasons.push(`${what}; the append-only file on the pod's volume should keep every one`);
    }
    return { pass: reasons.length === 0, reasons, notes };
  },
});
