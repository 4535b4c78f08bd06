'use strict';
// Scenario: standalone Redis SIGKILLed under the records workload, then started again. Promised: 503s
// only, no request hanging past the service's Redis timeout, and recovery without restarting the
// instances.
const { loadConfig } = require('../../data-service/src/config');
const { recordsUnderFault } = require('./load');
const { redisOutage } = require('./redis-outage');
const { checkScenario, observedCase, errorsBeyond503 } = require('./scenario');

/** The service's REDIS_TIMEOUT_MS: the lab leaves it at the service's default. */
const REDIS_TIMEOUT_MS = loadConfig({}).redisTimeoutMs;
/** What a request may add to the Redis timeout on a shared machine (router hop, scheduling). */
const HANG_MARGIN_MS = 500;
const LEAD_MS = 2000;
const TAIL_MS = 3000;

module.exports = checkScenario({
  name: 'redis-kill',
  title: 'Redis killed under load',
  promise: `errors are 503s only, none slower than REDIS_TIMEOUT_MS (${REDIS_TIMEOUT_MS} ms) + ${HANG_MARGIN_MS} ms, recovery by itself`,
  describe: (opts) =>
    `SIGKILL of the standalone redis-server, started again ${opts.outageMs} ms later, under ` +
    `${opts.rate} req/s of the records workload (20 % add, 20 % update, 60 % select) through the http Route`,
  async inject(ctx) {
    const { opts } = ctx;
    if (ctx.state().redis.mode !== 'standalone')
      return { cases: [], skipped: 'needs LAB_REDIS=standalone (a cluster: redis-failover)' };
    const seconds = Math.ceil((LEAD_MS + opts.outageMs + TAIL_MS) / 1000);
    ctx.log(`  http: ${opts.rate} req/s for ${seconds} s, Redis down for ${opts.outageMs} ms`);
    const start = Date.now();
    const { load, fault: outage } = await recordsUnderFault(ctx, {
      name: 'redis-kill',
      durationSeconds: seconds,
      fault: (signal) => redisOutage({ ...ctx, signal }, { start, leadMs: LEAD_MS, outageMs: opts.outageMs }),
    });
    return {
      cases: [
        observedCase({
          name: 'standalone:http',
          injected: outage.injected,
          load,
          errors: load.errorKinds,
          recoveryMs: outage.recoveryMs,
          figures: {
            outageMs: outage.restartedAt - outage.killedAt,
            // What clients lived through: from the kill to the first acknowledged write.
            unavailableMs:
              outage.recoveryMs === null ? null : outage.restartedAt + outage.recoveryMs - outage.killedAt,
            redisTimeoutMs: REDIS_TIMEOUT_MS,
          },
        }),
      ],
    };
  },
  verdict(observation) {
    if (observation.skipped) return { pass: true, reasons: [], notes: [`skipped: ${observation.skipped}`] };
    const reasons = [];
    const notes = [];
    for (const c of observation.cases) {
      const beyond503 = errorsBeyond503(c);
      if (beyond503) reasons.push(beyond503);
      const limit = REDIS_TIMEOUT_MS + HANG_MARGIN_MS;
      if (c.load.max !== null && c.load.max > limit) {
        reasons.push(`${c.name}: a request took ${c.load.max} ms, beyond ${limit} ms: it hung on Redis`);
      }
      if (c.recoveryMs === null) reasons.push(`${c.name}: the service did not accept writes again by itself`);
      if (!c.load.failed) notes.push(`${c.name}: no request failed at all: the outage fell between requests`);
      if (c.load.droppedIterations)
        notes.push(`${c.name}: k6 dropped ${c.load.droppedIterations} iterations`);
    }
    return { pass: reasons.length === 0, reasons, notes };
  },
});
