'use strict';
// Scenario: durability of acknowledged writes. Writers keep the id of every 201, Redis is SIGKILLed and
// restarted from its append-only file, and every id is read back: with appendfsync always nothing may
// be lost; with everysec, at most the last second; with no, the policy promises nothing.
const { setTimeout: sleep } = require('node:timers/promises');
const { redisOutage, recordsUrl } = require('./redis-outage');
const { startWriters, readBack, deleteRecords } = require('./write-client');
const { checkScenario, observedCase } = require('./scenario');
const { clusterOutage } = require('./redis-failover');

/** What each fsync policy allows to lose: the window before the crash, in ms (null: no promise). */
const ALLOWED_LOSS_MS = { always: 0, everysec: 1000, no: null };
const LEAD_MS = 1500;
const TAIL_MS = 1000;
const SHOWN_IDS = 20;

/** The observed case from the writes, the outage and the read-back. */
function durabilityCase({ fsync, acknowledged, writes, outage, back, dropped }) {
  const missing = new Set(back.missing);
  const lost = acknowledged.filter((a) => missing.has(a.id));
  const failed = Object.values(writes.failures).reduce((a, b) => a + b, 0);
  return observedCase({
    name: `appendfsync ${fsync ?? 'off (no AOF)'}`,
    injected: [
      ...outage.injected,
      ...(dropped.length
        ? [{ atMs: null, what: `${dropped.length} acknowledged record(s) deleted on purpose` }]
        : []),
    ],
    load: {
      workload: `POST /api/records from ${writes.concurrency} keep-alive clients via http (Node, every 201 id kept)`,
      requests: writes.requests,
      failed,
      errors: writes.failures,
      p50: null,
      p99: null,
      max: null,
    },
    errors: writes.failures,
    recoveryMs: outage.recoveryMs,
    dataLost: {
      count: lost.length,
      acknowledged: acknowledged.length,
      // How long before the kill the oldest lost write was acknowledged: the window it lost.
      windowMs: lost.length ? outage.killedAt - Math.min(...lost.map((a) => a.at)) : 0,
      ids: lost.slice(0, SHOWN_IDS).map((a) => a.id),
      unknown: back.unknown.length,
    },
    figures: {
      fsync: fsync ?? null,
      acknowledgedBeforeKill: acknowledged.filter((a) => a.at < outage.killedAt).length,
      acknowledgedAfterRestart: acknowledged.filter((a) => a.at >= outage.restartedAt).length,
    },
  });
}

module.exports = checkScenario({
  name: 'durability',
  title: 'Durability of acknowledged writes',
  promise:
    'every write acknowledged with 201 survives a Redis crash (always), or all but the last second (everysec)',
  describe: (opts) =>
    `${opts.writers} clients POST records through the http Route; redis-server SIGKILLed after ` +
    `${LEAD_MS} ms and started again ${opts.outageMs} ms later from its AOF (on a cluster: a primary ` +
    `killed and its replica promoted); every acknowledged id read back`,
  async inject(ctx) {
    const { opts } = ctx;
    const state = ctx.state();
    const fsync = state.redis.fsync ?? null;
    const url = recordsUrl(state);
    ctx.log(`  appendfsync ${fsync ?? 'off'}: ${opts.writers} writers, Redis down for ${opts.outageMs} ms`);
    const start = Date.now();
    const writers = startWriters({ url, concurrency: opts.writers });
    let outage;
    let stats;
    try {
      outage =
        state.redis.mode === 'cluster'
          ? await clusterOutage(ctx, { start, leadMs: LEAD_MS })
          : await redisOutage(ctx, { start, leadMs: LEAD_MS, outageMs: opts.outageMs });
      await sleep(TAIL_MS, undefined, { signal: ctx.signal });
    } finally {
      stats = await writers.stop();
    }
    const acknowledged = [...writers.acknowledged];
    // The proof that the check can fail: lose the oldest acknowledged writes for real.
    const dropped = acknowledged.slice(0, opts.dropAcknowledged || 0).map((a) => a.id);
    await deleteRecords({ url, ids: dropped });
    ctx.log(`    reading back ${acknowledged.length} acknowledged records`);
    const back = await readBack({ url, ids: acknowledged.map((a) => a.id) });
    const writes = { ...stats, failures: writers.failures, concurrency: opts.writers };
    const c = durabilityCase({ fsync, acknowledged, writes, outage, back, dropped });
    if (state.redis.mode === 'cluster') {
      c.name = `cluster failover, REDIS_WAIT_REPLICAS=${state.redis.waitReplicas || 0}`;
      Object.assign(c.figures, { cluster: true, waitReplicas: state.redis.waitReplicas || 0 });
    }
    return { cases: [c] };
  },
  verdict(observation) {
    if (observation.skipped) return { pass: true, reasons: [], notes: [`skipped: ${observation.skipped}`] };
    const reasons = [];
    const notes = [];
    for (const c of observation.cases) {
      const { fsync } = c.figures;
      const lost = c.dataLost;
      if (c.figures.cluster) {
        // A failover loses what the primary acknowledged before its replica had it, unless the
        // service waited for the replica (REDIS_WAIT_REPLICAS).
        if (!lost.acknowledged) reasons.push(`${c.name}: no write was acknowledged: nothing was tested`);
        if (c.figures.waitReplicas && lost.count) {
          reasons.push(
            `${c.name}: ${lost.count} of ${lost.acknowledged} acknowledged writes lost although a replica confirmed each`,
          );
        } else if (!c.figures.waitReplicas) {
          notes.push(
            `${c.name}: ${lost.count} of ${lost.acknowledged} acknowledged writes lost in the failover ` +
              `(asynchronous replication; REDIS_WAIT_REPLICAS=1 acknowledges only what a replica has)`,
          );
        }
        continue;
      }
      if (fsync === null) {
        reasons.push(
          `${c.name}: Redis keeps no append-only file (a lab started before LAB_REDIS_FSYNC): a crash loses everything`,
        );
        continue;
      }
      if (!lost.acknowledged) reasons.push(`${c.name}: no write was acknowledged: nothing was tested`);
      const allowed = ALLOWED_LOSS_MS[fsync];
      const shown = lost.ids.length
        ? ` (${lost.ids.slice(0, 3).join(', ')}${lost.count > 3 ? ', …' : ''})`
        : '';
      if (allowed === 0 && lost.count) {
        reasons.push(
          `${c.name}: ${lost.count} of ${lost.acknowledged} acknowledged writes lost${shown}; this policy allows none`,
        );
      } else if (allowed && lost.windowMs > allowed) {
        reasons.push(
          `${c.name}: ${lost.count} acknowledged writes lost${shown}, the oldest acknowledged ${lost.windowMs} ms before the crash; the policy allows ${allowed} ms`,
        );
      } else if (allowed === null && lost.count) {
        notes.push(`${c.name}: ${lost.count} acknowledged writes lost; appendfsync no promises nothing`);
      }
      if (lost.unknown)
        notes.push(`${c.name}: ${lost.unknown} records could not be read back (neither 200 nor 404)`);
      if (!lost.count && fsync !== 'always') {
        notes.push(
          `${c.name}: nothing lost. A SIGKILL leaves the kernel's page cache intact, and Redis writes the AOF before it replies, ` +
            `so a killed process loses nothing at any policy; ${fsync} decides what a machine crash or power loss loses`,
        );
      }
    }
    return { pass: reasons.length === 0, reasons, notes };
  },
});

module.exports.ALLOWED_LOSS_MS = ALLOWED_LOSS_MS;
