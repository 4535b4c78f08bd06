'use strict';
// Scenario: the router reloads mid-traffic, as OpenShift does on every route or endpoint change:
// lab:reload N times at an interval under a steady rate through each termination, keep-alive and
// close. The promise is zero failed requests: the listening sockets are handed over (-x).
const { setTimeout: sleep } = require('node:timers/promises');
const { reload } = require('../lab/reload');
const { unsupportedBy } = require('../lab/common/router-kinds');
const { steadyPages, underLoad } = require('./load');
const { checkScenario, observedCase } = require('./scenario');

/** Time before the first reload: k6 is started and at its rate. */
const LEAD_MS = 1500;

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? null;

/** Reloads `count` times, `intervalMs` apart, from `start`; returns [{ atMs, what, ms }]. */
async function reloadChurn({ env, count, intervalMs, start, signal, handover }) {
  const done = [];
  await sleep(LEAD_MS, undefined, { signal });
  for (let i = 1; i <= count; i++) {
    if (i > 1) await sleep(intervalMs, undefined, { signal });
    const atMs = Date.now() - start;
    const r = await reload({ env, signal, handover });
    done.push({
      atMs,
      what: `reload ${i}/${count}: pid ${r.pid} took over from ${r.oldPids.join(', ')}`,
      ms: r.ms,
    });
  }
  return done;
}

async function reloadCase(ctx, termination, connection, { handover = true } = {}) {
  const { opts } = ctx;
  const name = `${termination}:${connection}${handover ? '' : ' without socket handover'}`;
  const seconds = Math.ceil((2 * LEAD_MS + opts.reloads * opts.reloadIntervalMs) / 1000);
  ctx.log(
    `  ${name}: ${opts.rate} req/s for ${seconds} s, ${opts.reloads} reloads every ${opts.reloadIntervalMs} ms`,
  );
  // A failed reload stops this case's load at once; Ctrl-C stops both.
  const start = Date.now();
  const { load, fault: reloads } = await underLoad({
    signal: ctx.signal,
    load: (signal) =>
      steadyPages({
        k6: ctx.k6,
        target: ctx.target,
        termination,
        connection,
        rate: opts.rate,
        durationSeconds: seconds,
        summaryPath: ctx.rawFile(
          `router-reload-${termination}-${connection}${handover ? '' : '-no-handover'}.json`,
        ),
        signal,
      }),
    fault: (signal) =>
      reloadChurn({
        env: ctx.env,
        count: opts.reloads,
        intervalMs: opts.reloadIntervalMs,
        start,
        signal,
        handover,
      }),
  });
  const reloadMs = reloads.map((r) => r.ms);
  return observedCase({
    name,
    injected: reloads.map(({ atMs, what }) => ({ atMs, what })),
    load,
    errors: load.errorKinds,
    figures: {
      handover,
      reloads: reloads.length,
      reloadMsMedian: median(reloadMs),
      reloadMsMax: Math.max(...reloadMs),
      // The spike a reload may cause shows as the slowest request against the typical one.
      latencySpikeMs:
        load.max !== null && load.p50 !== null ? Number((load.max - load.p50).toFixed(2)) : null,
    },
  });
}

module.exports = checkScenario({
  name: 'router-reload',
  title: 'Router reload under load',
  promise: 'zero failed requests',
  describe: (opts) =>
    `${opts.reloads} HAProxy reloads (new process, sockets handed over with -x, old one finishing with -sf), ` +
    `one every ${opts.reloadIntervalMs} ms, under ${opts.rate} req/s of GET /api/pages/1k through ` +
    `${opts.terminations.join(', ')}, keep-alive and close`,
  async inject(ctx) {
    const cases = [];
    for (const termination of ctx.opts.terminations) {
      for (const connection of ['keepalive', 'close']) {
        ctx.signal?.throwIfAborted();
        cases.push(await reloadCase(ctx, termination, connection));
      }
    }
    // For comparison: the same churn without handing the sockets over (close mode shows it), where
    // the router can do without (the real router always hands them over).
    const noHandover = unsupportedBy(ctx.state().router.kind, 'reload-without-handover');
    if (ctx.opts.compareNoHandover && noHandover) {
      ctx.log(`  (no comparison without socket handover: ${noHandover})`);
    } else if (ctx.opts.compareNoHandover) {
      for (const termination of ctx.opts.terminations) {
        ctx.signal?.throwIfAborted();
        cases.push(await reloadCase(ctx, termination, 'close', { handover: false }));
      }
    }
    return { cases };
  },
  verdict(observation) {
    const reasons = [];
    const notes = [];
    for (const c of observation.cases) {
      if (c.figures.handover === false) {
        // A comparison, not a promise: what -x prevents.
        notes.push(
          `${c.name}: ${c.load.failed} of ${c.load.requests} requests failed (${
            Object.entries(c.errors)
              .map(([k, n]) => `${n} ${k}`)
              .join(', ') || 'none'
          })`,
        );
        continue;
      }
      if (c.load.failed) {
        const kinds = Object.entries(c.errors).map(([k, n]) => `${n} ${k}`);
        reasons.push(
          `${c.name}: ${c.load.failed} of ${c.load.requests} requests failed (${kinds.join(', ')})`,
        );
      }
      if (c.load.droppedIterations) {
        notes.push(`${c.name}: k6 dropped ${c.load.droppedIterations} iterations (the rate was not held)`);
      }
    }
    return { pass: reasons.length === 0, reasons, notes };
  },
});
