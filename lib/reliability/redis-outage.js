'use strict';
// A Redis outage for the scenarios that need one: SIGKILL redis-1 after a lead-in, start it
// again after `outageMs`, and time how long the service takes to accept writes again through
// the router. Whatever happens (an error, Ctrl-C), a killed Redis is started again.
const fs = require('node:fs');
const { setTimeout: sleep } = require('node:timers/promises');
const { request } = require('../lab/common/client');
const { killRedisNode, restartRedisNode, redisNodeRunning } = require('../lab/faults/redis-node');

/** The lab's http Route's records URL. */
function recordsUrl(state, termination = 'http') {
  return `${state.routes.find((r) => r.termination === termination).url}/api/records`;
}

/** POSTs a record through the router every 50 ms until one is acknowledged (201); ms or null. */
async function untilWritesSucceed(state, { from, timeoutMs = 30000, signal }) {
  const url = recordsUrl(state);
  const ca = fs.readFileSync(state.certs.labCA);
  while (Date.now() - from < timeoutMs) {
    signal?.throwIfAborted();
    try {
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"probe":"recovery"}',
        ca,
        timeoutMs: 2000,
      });
      if (res.status === 201) return Date.now() - from;
    } catch {
      // no answer yet
    }
    await sleep(50, undefined, { signal });
  }
  return null;
}

/**
 * The outage, timed from `start` (the case's load start): waits `leadMs`, SIGKILLs redis-1,
 * waits `outageMs`, restarts it. Resolves { injected, killedAt, restartedAt, recoveryMs }
 * (recoveryMs: from Redis answering PING again to the first acknowledged write through the router).
 */
async function redisOutage(ctx, { start, leadMs, outageMs }) {
  const { labDir } = ctx.state();
  const { signal } = ctx;
  await sleep(leadMs, undefined, { signal });
  let killed = null;
  try {
    killed = await killRedisNode(labDir, 0);
    const killedAt = Date.now();
    ctx.log(`    SIGKILL redis-1 (pid ${killed.pid}) at ${killedAt - start} ms`);
    await sleep(outageMs, undefined, { signal });
    const restarted = await restartRedisNode(labDir, 0, { signal });
    const restartedAt = Date.now();
    const recoveryMs = await untilWritesSucceed(ctx.state(), { from: restartedAt, signal });
    ctx.log(
      `    redis-1 back (pid ${restarted.pid}) at ${restartedAt - start} ms; ` +
        (recoveryMs === null ? 'writes did NOT recover' : `writes acknowledged again ${recoveryMs} ms later`),
    );
    return {
      injected: [
        { atMs: killedAt - start, what: `SIGKILL redis-1 (pid ${killed.pid})` },
        {
          atMs: restartedAt - start,
          what: `redis-1 started again (pid ${restarted.pid}, PING after ${restarted.ms} ms)`,
        },
      ],
      killedAt,
      restartedAt,
      recoveryMs,
    };
  } finally {
    // Undo the fault: no signal, an aborted one would refuse to start it.
    if (killed && !redisNodeRunning(labDir, 0)) await restartRedisNode(labDir, 0);
  }
}

module.exports = { redisOutage, untilWritesSucceed, recordsUrl };
