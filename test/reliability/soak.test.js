'use strict';
// The soak's short form against a real lab: every termination at once in consecutive k6
// windows, latency percentiles per window and the resident memory of every lab process.
const fs = require('node:fs');
const path = require('node:path');
const { sharedLab, useTempDir, runScenarios, quietLog } = require('../lab/helpers');

jest.setTimeout(120000);

describe('soak (real HAProxy, real k6)', () => {
  // The run's shared one-replica lab: the scenario leaves it as it found it.
  const lab$ = sharedLab({ LAB_REPLICAS: '1' });
  const dir = useTempDir('rlab-soak-');

  test('6 s in two windows through every termination: no error, percentiles per window, RSS per process', async () => {
    const opts = { soakSeconds: 6, soakRate: 30, terminations: ['http', 'edge', 'passthrough', 'reencrypt'] };
    // A broken matrix run in the same directory: its report cannot be rendered, which is said
    // once, and the reliability files are written all the same.
    fs.writeFileSync(path.join(dir, 'results.json'), '{ broken');
    const log = quietLog();
    const { doc } = await runScenarios(['soak'], opts, { env: lab$.env, dir, log });
    expect(log.lines.filter((line) => /report\.html not updated/.test(line))).toEqual([
      expect.stringMatching(/results\.json.*not valid JSON/),
    ]);
    const [scenario] = doc.scenarios;
    expect(scenario.cases.map((c) => c.name)).toEqual(opts.terminations.map((t) => `${t}:keepalive`));
    for (const c of scenario.cases) {
      expect(c.errors).toEqual({});
      expect(c.load.requests).toBeGreaterThan(100);
      expect(c.figures.p99).toHaveLength(2);
      expect(c.figures.p99.every((v) => v > 0)).toBe(true);
    }
    const { rssSeriesMb, rss } = scenario.cases[0].figures;
    expect(Object.keys(rssSeriesMb)).toEqual(['router', 'data-service-1', 'redis-1']);
    for (const series of Object.values(rssSeriesMb)) expect(series.every((mb) => mb > 1)).toBe(true);
    expect(rss.router.gone).toBe(false);
    expect(scenario.verdict.pass).toBe(true);
    const md = fs.readFileSync(path.join(dir, 'reliability.md'), 'utf8');
    expect(md).toMatch(/Latency p50 \/ p99 per 3 s window/);
    expect(md).toMatch(/\| router \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.-]+ \|/);
  });
});
