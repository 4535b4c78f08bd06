'use strict';
// Scenario: a Redis Cluster primary SIGKILLed under the records workload; its replica is promoted.
// Reported: the error window (kill → a key of its slots served again through the router), errors by
// kind, the slowest request. The node rejoins and gets its role back, so the lab ends as it began.
const { setTimeout: sleep } = require('node:timers/promises');
const crypto = require('node:crypto');
const fs = require('node:fs');
const { redisCliWith, keySlot, ownSlots } = require('../core/redis-server');
const { request } = require('../lab/common/client');
const { killRedisNode, restartRedisNode, redisNodeRunning } = require('../lab/faults/redis-node');
const { recordsUnderFault } = require('./load');
const { recordsUrl } = require('./redis-outage');
const { checkScenario, observedCase, errorsBeyond503 } = require('./scenario');

const LEAD_MS = 2000;
const TAIL_MS = 3000;

/** redis-cli against the lab's Redis host (loopback, or the real router's pod network). */
const clusterCli =
  (host = '127.0.0.1') =>
  (port, ...args) =>
    redisCliWith(port, undefined, args, { host });

/** The first primary of the lab's cluster: { index, port, slots: [[from, to]] }. */
async function firstPrimary(cli, ports) {
  for (const [index, port] of ports.entries()) {
    const role = await cli(port, 'role');
    if (!role.startsWith('master')) continue;
    const slots = ownSlots(await cli(port, 'cluster', 'nodes'));
    return { index, port, slots };
  }
  throw new Error(`no primary among the cluster's nodes (${ports.join(', ')})`);
}

/** A record id whose key (record:<id>) lives in one of `slots`. */
function idInSlots(slots) {
  for (;;) {
    const id = crypto.randomUUID();
    const slot = keySlot(`record:${id}`);
    if (slots.some(([from, to]) => slot >= from && slot <= to)) return id;
  }
}

/** GETs the probe record through the router until Redis answers for its slot (404): ms or null. */
async function untilSlotServed(state, id, { from, timeoutMs = 30000, signal }) {
  const url = `${recordsUrl(state)}/${id}`;
  const ca = fs.readFileSync(state.certs.labCA);
  while (Date.now() - from < timeoutMs) {
    signal?.throwIfAborted();
    try {
      if ((await request(url, { ca, timeoutMs: 2000 })).status === 404) return Date.now() - from;
    } catch {
      // not yet
    }
    await sleep(50, undefined, { signal });
  }
  return null;
}

async function waitForRole(cli, port, pattern, { timeoutMs = 20000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const role = await cli(port, 'role');
      const info = await cli(port, 'info', 'replication');
      if (pattern.test(role) && (!/^slave/.test(role) || /master_link_status:up/.test(info))) return;
    } catch {
      // starting
    }
    await sleep(200);
  }
  throw new Error(`redis on port ${port} did not reach role ${pattern} in ${timeoutMs} ms`);
}

/** Each node's role ('master' or 'slave'), in port order. */
async function clusterRoles(cli, ports) {
  return Promise.all(ports.map(async (port) => (await cli(port, 'role')).split('\n')[0]));
}

/**
 * Starts the killed node again; it rejoins as a replica; CLUSTER FAILOVER gives its role back.
 * Done only when every node holds its role from before the kill again: the promoted replica
 * learns it lost its slots by gossip, a moment after the restored node reports 'master'.
 */
async function restore(labDir, cli, primary, ports, rolesBefore) {
  if (!redisNodeRunning(labDir, primary.index)) await restartRedisNode(labDir, primary.index);
  await waitForRole(cli, primary.port, /^slave/);
  // A manual failover gives up after 5 s when the replica cannot catch up (writes keep coming):
  // asked again, it completes.
  for (let attempt = 1; ; attempt++) {
    await cli(primary.port, 'cluster', 'failover');
    try {
      await waitForRole(cli, primary.port, /^master/, { timeoutMs: 7000 });
      break;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
  await Promise.all(
    ports.map((port, i) => waitForRole(cli, port, rolesBefore[i] === 'master' ? /^master/ : /^slave/)),
  );
}

/**
 * A failover, timed from `start`: waits `leadMs`, SIGKILLs the first primary, waits until its
 * slots are served again through the router, then restores the node as the primary. Resolves
 * { injected, killedAt, restartedAt (its slots served again), recoveryMs (the error window) }.
 */
async function clusterOutage(ctx, { start, leadMs, signal = ctx.signal }) {
  const state = ctx.state();
  const { ports } = state.redis;
  const cli = clusterCli(state.redis.host);
  const rolesBefore = await clusterRoles(cli, ports);
  const primary = await firstPrimary(cli, ports);
  const probeId = idInSlots(primary.slots);
  await sleep(leadMs, undefined, { signal });
  let killed = null;
  try {
    killed = await killRedisNode(state.labDir, primary.index);
    const killedAt = Date.now();
    ctx.log(`    SIGKILL primary redis-${primary.index + 1} (pid ${killed.pid}) at ${killedAt - start} ms`);
    const windowMs = await untilSlotServed(state, probeId, { from: killedAt, signal });
    const servedAt = windowMs === null ? Date.now() : killedAt + windowMs;
    ctx.log(`    error window ${windowMs === null ? 'did not close' : `${windowMs} ms`}`);
    return {
      primary,
      injected: [
        { atMs: killedAt - start, what: `SIGKILL primary redis-${primary.index + 1} (pid ${killed.pid})` },
        {
          atMs: windowMs === null ? null : servedAt - start,
          what:
            windowMs === null
              ? 'its slots were NOT served again'
              : 'its slots served again (replica promoted)',
        },
      ],
      killedAt,
      restartedAt: servedAt,
      recoveryMs: windowMs,
    };
  } finally {
    if (killed) await restore(state.labDir, cli, primary, ports, rolesBefore);
  }
}

module.exports = checkScenario({
  name: 'redis-failover',
  title: 'Redis Cluster: a primary killed under load',
  promise: 'errors are 503s only, confined to the failover window, and the service recovers by itself',
  describe: (opts) =>
    `SIGKILL of a Redis Cluster primary under ${opts.rate} req/s of the records workload through the http Route; ` +
    `its replica is promoted; then the node is started again and handed its role back (LAB_REDIS=cluster only)`,
  async inject(ctx) {
    const { opts } = ctx;
    const state = ctx.state();
    if (state.redis.mode !== 'cluster') return { cases: [], skipped: 'needs a lab with LAB_REDIS=cluster' };
    const seconds = Math.ceil((LEAD_MS + opts.failoverWindowMs + TAIL_MS) / 1000);
    const start = Date.now();
    const { load, fault: outage } = await recordsUnderFault(ctx, {
      name: 'redis-failover',
      durationSeconds: seconds,
      fault: (signal) => clusterOutage(ctx, { start, leadMs: LEAD_MS, signal }),
    });
    return {
      cases: [
        observedCase({
          name: 'cluster:http',
          injected: outage.injected,
          load,
          errors: load.errorKinds,
          recoveryMs: outage.recoveryMs,
          figures: {
            errorWindowMs: outage.recoveryMs,
            primaryPort: outage.primary.port,
            clusterNodeTimeoutMs: 2000,
          },
        }),
      ],
    };
  },
  verdict(observation) {
    if (observation.skipped) return { pass: true, reasons: [], notes: [`skipped: ${observation.skipped}`] };
    const reasons = [];
    for (const c of observation.cases) {
      const beyond503 = errorsBeyond503(c);
      if (beyond503) reasons.push(beyond503);
      if (c.figures.errorWindowMs === null)
        reasons.push(`${c.name}: the lost primary's slots were not served again`);
    }
    return { pass: reasons.length === 0, reasons, notes: [] };
  },
});

module.exports.clusterOutage = clusterOutage;
