'use strict';
// Scenario: hostile and malformed clients (lib/reliability/attacks.js), one case per attack, each
// beside a steady load through the edge Route that must stay error-free. No lab process may go
// down, and none may grow its resident memory by more than RSS_GROWTH_LIMIT_MB during a case.
const { setMaxListeners } = require('node:events');
const { setTimeout: sleep } = require('node:timers/promises');
const { steadyPages, underLoad } = require('./load');
const { ATTACKS, summarize } = require('./attacks');
const { labPids, rssOf, rssGrowth } = require('./memory');
const { checkScenario, observedCase } = require('./scenario');

/** The steady load runs alone before and after each attack: long enough for k6 to be at its rate. */
const LEAD_MS = 500;
const TAIL_MS = 500;
/** More than buffers for the attack's connections (HAProxy: 2 × 32 KiB each): a leak. */
const RSS_GROWTH_LIMIT_MB = 64;

async function attackCase(ctx, attack) {
  const { opts } = ctx;
  const state = ctx.state();
  const pids = labPids(state);
  const before = rssOf(pids);
  const seconds = Math.ceil((LEAD_MS + opts.attackMs + TAIL_MS) / 1000);
  ctx.log(`  ${attack.name}: ${attack.what}, beside ${opts.rate} req/s via edge`);
  const start = Date.now();
  let atMs;
  const { load, fault: seen } = await underLoad({
    signal: ctx.signal,
    load: (signal) =>
      steadyPages({
        k6: ctx.k6,
        target: ctx.target,
        termination: 'edge',
        connection: 'keepalive',
        rate: opts.rate,
        durationSeconds: seconds,
        summaryPath: ctx.rawFile(`hostile-${attack.name}.json`),
        signal,
      }),
    fault: async (signal) => {
      setMaxListeners(0, signal); // every connection of an attack listens for the abort
      await sleep(LEAD_MS, undefined, { signal });
      atMs = Date.now() - start;
      return summarize(await attack.run({ state, durationMs: opts.attackMs, signal }));
    },
  });
  return observedCase({
    name: attack.name,
    injected: [{ atMs, what: attack.what }],
    load,
    errors: load.errorKinds,
    figures: {
      attack: seen,
      rss: rssGrowth(before, rssOf(pids)),
      expected: attack.expect(seen, opts.attackMs),
    },
  });
}

module.exports = checkScenario({
  name: 'hostile',
  title: 'Hostile and malformed clients',
  promise: `the steady load stays error-free, every lab process stays up and grows by under ${RSS_GROWTH_LIMIT_MB} MB, each bad client gets what it deserves`,
  describe: (opts) =>
    `${opts.attacks.join(', ')}; each for up to ${opts.attackMs} ms beside ${opts.rate} req/s of GET /api/pages/1k via edge, keep-alive`,
  async inject(ctx) {
    const cases = [];
    for (const name of ctx.opts.attacks) {
      ctx.signal?.throwIfAborted();
      cases.push(
        await attackCase(
          ctx,
          ATTACKS.find((a) => a.name === name),
        ),
      );
    }
    return { cases };
  },
  verdict(observation) {
    const reasons = [];
    const notes = [];
    for (const c of observation.cases) {
      if (c.load.failed) {
        const kinds = Object.entries(c.errors).map(([k, n]) => `${n} ${k}`);
        reasons.push(
          `${c.name}: the steady load lost ${c.load.failed} of ${c.load.requests} requests (${kinds.join(', ')})`,
        );
      }
      for (const [name, m] of Object.entries(c.figures.rss)) {
        if (m.gone) reasons.push(`${c.name}: ${name} is gone`);
        else if (m.growthMb > RSS_GROWTH_LIMIT_MB) {
          reasons.push(`${c.name}: ${name} grew by ${m.growthMb} MB (${m.beforeMb} → ${m.afterMb} MB)`);
        }
      }
      for (const reason of c.figures.expected) reasons.push(`${c.name}: ${reason}`);
      const seen = c.figures.attack;
      if (seen.stillOpenAtEnd) {
        notes.push(
          `${c.name}: ${seen.stillOpenAtEnd} of ${seen.connections} connections were still open when the attack ended`,
        );
      }
    }
    return { pass: reasons.length === 0, reasons, notes };
  },
});

module.exports.RSS_GROWTH_LIMIT_MB = RSS_GROWTH_LIMIT_MB;
