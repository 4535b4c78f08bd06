'use strict';
// Scenario: a long steady run through every termination, as consecutive k6 windows (a minute each;
// 10 s in runs of two minutes or less) so that drifting percentiles show, with the resident memory
// of every lab process at each window boundary.
const { steadyPagesEach } = require('./load');
const { labPids, rssOf, rssGrowth } = require('./memory');
const { megabytes } = require('../core/proc');
const { checkScenario, observedCase, lossReasons } = require('./scenario');

const RSS_GROWTH_LIMIT_MB = 64;
/** A window's p99 this many times the first one's: the latency drifts. */
const DRIFT_FACTOR = 2;

/**
 * Window length in seconds: a minute; 10 s when the soak is too short for minutes to show; and
 * at least two windows, so that there is a trend to see.
 */
const windowSeconds = (soakSeconds) => {
  if (soakSeconds > 120) return 60;
  return soakSeconds >= 20 ? 10 : Math.max(1, Math.floor(soakSeconds / 2));
};

module.exports = checkScenario({
  name: 'soak',
  title: 'Soak',
  promise: `error rate 0 through every termination, no lab process growing by ${RSS_GROWTH_LIMIT_MB} MB or more`,
  describe: (opts) =>
    `${opts.soakSeconds} s at ${opts.soakRate} req/s through each of ${opts.terminations.join(', ')} at once ` +
    `(keep-alive), in windows of ${windowSeconds(opts.soakSeconds)} s; RSS of every lab process at each window`,
  async inject(ctx) {
    const { opts } = ctx;
    const win = windowSeconds(opts.soakSeconds);
    const count = Math.max(1, Math.round(opts.soakSeconds / win));
    const pids = labPids(ctx.state());
    const samples = [rssOf(pids)];
    const windows = Object.fromEntries(opts.terminations.map((t) => [t, []]));
    for (let w = 1; w <= count; w++) {
      ctx.signal?.throwIfAborted();
      const loads = await steadyPagesEach(ctx, {
        terminations: opts.terminations,
        rate: opts.soakRate,
        durationSeconds: win,
        prefix: `soak-${w}`,
        signal: ctx.signal,
      });
      samples.push(rssOf(pids));
      loads.forEach((load, i) => windows[opts.terminations[i]].push(load));
      const failed = loads.reduce((a, l) => a + l.failed, 0);
      const p99 = loads.map((l, i) => `${opts.terminations[i]} ${l.p99} ms`).join(', ');
      ctx.log(`  window ${w}/${count}: ${failed} failed; p99 ${p99}`);
    }
    const growth = rssGrowth(samples[0], samples[samples.length - 1]);
    const rssSeriesMb = Object.fromEntries(
      Object.keys(pids).map((name) => [name, samples.map((s) => megabytes(s[name]))]),
    );
    return {
      cases: opts.terminations.map((termination) => {
        const list = windows[termination];
        const sum = (key) => list.reduce((a, l) => a + l[key], 0);
        const errors = {};
        for (const l of list)
          for (const [k, n] of Object.entries(l.errorKinds)) errors[k] = (errors[k] || 0) + n;
        return observedCase({
          name: `${termination}:keepalive`,
          load: {
            workload: `GET /api/pages/1k via ${termination}, keep-alive, ${opts.soakRate} req/s for ${count} × ${win} s (k6)`,
            requests: sum('requests'),
            failed: sum('failed'),
            droppedIterations: sum('droppedIterations'),
            // The worst window's percentiles; each window's are in figures.
            p50: Math.max(...list.map((l) => l.p50 ?? 0)),
            p99: Math.max(...list.map((l) => l.p99 ?? 0)),
            max: Math.max(...list.map((l) => l.max ?? 0)),
          },
          errors,
          figures: {
            windowSeconds: win,
            // Percentiles per window (ms), in order: a drift shows as a rising series.
            p50: list.map((l) => l.p50),
            p99: list.map((l) => l.p99),
            rss: growth,
            rssSeriesMb,
          },
        });
      }),
    };
  },
  /** Its own tables (reliability.md and .html): latency per window, memory per process. */
  extras(result) {
    const cases = result.cases;
    if (!cases.length) return [];
    const win = cases[0].figures.windowSeconds;
    const windows = cases[0].figures.p99.map((_, i) => `${(i + 1) * win} s`);
    const { rssSeriesMb, rss } = cases[0].figures;
    return [
      {
        title: `Latency p50 / p99 per ${win} s window (ms)`,
        head: ['case', ...windows],
        rows: cases.map((c) => [c.name, ...c.figures.p50.map((p50, i) => `${p50} / ${c.figures.p99[i]}`)]),
      },
      {
        title: 'Resident memory per process (MB), at the start and after each window',
        head: ['process', 'start', ...windows, 'growth'],
        rows: Object.entries(rssSeriesMb).map(([name, values]) => [
          name,
          ...values.map((v) => v ?? 'gone'),
          rss[name].growthMb ?? '–',
        ]),
      },
    ];
  },
  verdict(observation) {
    const reasons = lossReasons(observation.cases);
    const notes = [];
    for (const c of observation.cases) {
      const [first, ...rest] = c.figures.p99;
      const worst = Math.max(...rest.filter((v) => v !== null), 0);
      if (first && worst > DRIFT_FACTOR * first) {
        notes.push(`${c.name}: p99 rose from ${first} ms in the first window to ${worst} ms: latency drifts`);
      }
      if (c.load.droppedIterations)
        notes.push(`${c.name}: k6 dropped ${c.load.droppedIterations} iterations`);
    }
    // Memory is the lab's, shared by every case: judged once.
    const [one] = observation.cases;
    for (const [name, m] of Object.entries(one ? one.figures.rss : {})) {
      if (m.gone) reasons.push(`${name} is gone`);
      else if (m.growthMb >= RSS_GROWTH_LIMIT_MB)
        reasons.push(`${name} grew by ${m.growthMb} MB (${m.beforeMb} → ${m.afterMb} MB)`);
    }
    return { pass: reasons.length === 0, reasons, notes };
  },
});

module.exports.windowSeconds = windowSeconds;
