'use strict';
// The merge of runner summaries into one cell, through the lab's reducer: rates add up, and
// percentiles come from the merged distribution, not from averaging the runners'.
const { mergeRunnerSummaries } = require('../../lib/cluster/merge-runners');
const { describeMerged, offeredRate } = require('../../lib/report/console');
const { RESULTS_VERSION } = require('../../lib/results-model/document');
const { parseK6: parse } = require('../../lib/cluster/options');
const { trendOf } = require('../support/k6-trend');
const { runnerSummary, runnerA, runnerB, fast, slow } = require('./support/runner-summaries');

function exactPercentile(values, q) {
  return trendOf(values)[`p(${q})`];
}

const results = mergeRunnerSummaries(
  [
    { file: 'run-a-runner-1.json', summary: runnerA },
    { file: 'run-a-runner-2.json', summary: runnerB },
  ],
  { id: 'run-a', finishedAt: '2026-11-23T12:01:01.000Z', namespace: 'bank' },
);
const [merged] = results.cells;

describe('merging the runners of one TestRun', () => {
  test('request counts and rates add up; the run lasts as long as its longest runner', () => {
    expect(merged).toMatchObject({ samples: 2, combine: 'concurrent' });
    expect(merged.requests).toBe(9000 + 1010);
    expect(merged.rpsPerSample).toEqual([150, 16.6]);
    expect(merged.rps).toBeCloseTo(9000 / 60 + 1010 / 61, 1);
    expect(merged.okRps).toBeCloseTo(9000 / 60 + 1000 / 61, 1);
    expect(merged.seconds).toBe(61);
    expect(merged.generator.vusMax).toBe(64);
    expect(merged).toMatchObject({ name: 'edge:1k:keepalive', termination: 'edge', pageSize: 1024 });
    expect(results).toMatchObject({
      version: RESULTS_VERSION,
      id: 'run-a',
      complete: true,
      startedAt: '2026-11-23T12:00:00.000Z',
      options: {
        executor: 'constant-vus',
        vus: 64,
        maxVus: 64,
        durationSeconds: 60,
        cells: ['edge:1k:keepalive'],
      },
      environment: { target: 'cluster', namespace: 'bank', cores: null },
      tls: { insecure: false, skipped: ['passthrough'] },
    });
  });

  test('failures are counted by status, with the same keys as the lab matrix', () => {
    expect(merged.errorRate).toBeCloseTo(10 / 10010, 6);
    expect(merged.errors).toEqual({ 502: 10 });
  });

  test('no CPU is measured in the cluster: the verdict says so instead of claiming the router', () => {
    expect(merged.limitedBy).toEqual({
      by: 'unknown',
      hostBusy: false,
      reasons: [
        {
          role: 'unmeasured',
          text: expect.stringMatching(/the CPU of k6, the router, and the data service was not measured/),
        },
      ],
    });
    // Evidence still counts: runners that dropped iterations were the limit.
    const dropping = (summary) => ({
      ...summary,
      metrics: {
        ...summary.metrics,
        dropped_iterations: { type: 'counter', values: { count: 5, rate: 0.1 } },
      },
    });
    const [open] = mergeRunnerSummaries([{ file: 'a.json', summary: dropping(runnerA) }]).cells;
    expect(open.limitedBy.by).toBe('generator');
    expect(open.limitedBy.reasons[0].text).toMatch(/5 iterations dropped/);
  });
});

describe('the merged distribution', () => {
  test('percentiles come from the merged distribution, not from averaging the runners', () => {
    const pooled = [...fast, ...slow];
    const averagedP99 =
      (runnerA.metrics.request_total.values['p(99)'] + runnerB.metrics.request_total.values['p(99)']) / 2;
    expect(Math.abs(merged.p99 - exactPercentile(pooled, 99))).toBeLessThan(2);
    expect(Math.abs(merged.p99 - averagedP99)).toBeGreaterThan(20);
    expect(Math.abs(merged.p95 - exactPercentile(pooled, 95))).toBeLessThan(2);
    // The median of the pool lies in the fast runner's range; averaging medians would put it near 38 ms.
    expect(merged.p50).toBeLessThan(1.5);
    expect(merged.max).toBe(99);
    expect(merged.serviceTimeMs.p50).toBeCloseTo(0.5, 3);
    expect(merged.decomposition.serviceMs.count).toBe(10000);
    expect(merged.tlsHandshakeMs).toBeNull();
    expect(merged.tlsHandshakes).toBe(0);
  });

  test('the terminal lines show the sum and the merged percentiles', () => {
    const text = describeMerged(results);
    expect(text).toMatch(/^merged 2 runners, cell edge:1k:keepalive, 61 s: 166\.6 req\/s = 150 \+ 16\.6$/m);
    expect(text).toMatch(
      /^edge:1k:keepalive +166 ok rps {2}p99 9\d\.\d ms {2}0\.10 % errors {2}NO VERDICT: /m,
    );
  });
});

describe('--rate: the rate the runners offered together, against the one asked', () => {
  const at = (rate, generator = {}) => ({
    options: { rate },
    cells: [{ ...merged, rps: 98.4, generator: { ...merged.generator, droppedIterations: 0, ...generator } }],
  });

  test('within 5 % (or over) and nothing dropped: offered', () => {
    expect(offeredRate(at(100))).toBe('offered 98.4 of the 100 req/s asked');
    expect(offeredRate(at(90))).toBe('offered 98.4 of the 90 req/s asked');
    expect(describeMerged(at(100))).toMatch(/^offered 98\.4 of the 100 req\/s asked$/m);
  });

  test('short by more than 5 %, or iterations dropped: the generator could not offer it, and why', () => {
    expect(offeredRate(at(110))).toBe(
      'the generator could not offer 110 req/s: 98.4 req/s offered (more runners, --runner-cpu or --vus)',
    );
    expect(offeredRate(at(100, { droppedIterations: 12 }))).toMatch(
      /^the generator could not offer 100 req\/s: 12 iterations dropped, 98\.4 req\/s offered/,
    );
  });

  test('offered is the requests over the scenario’s duration, not over the runners’ time with its drain', () => {
    const run = at(100);
    run.options.durationSeconds = 5;
    run.cells[0] = { ...run.cells[0], requests: 500, rps: 92.7 };
    expect(offeredRate(run)).toBe('offered 100 of the 100 req/s asked');
    run.cells[0].requests = 460;
    expect(offeredRate(run)).toBe(
      'the generator could not offer 100 req/s: 92 req/s offered (more runners, --runner-cpu or --vus)',
    );
  });

  test('without --rate (a closed model) there is nothing to offer', () => {
    expect(offeredRate(at(null))).toBeNull();
    expect(describeMerged(results)).not.toMatch(/offer/);
  });
});

describe('what the merge refuses', () => {
  test('summaries of different cells, or a file that is no k6 summary, are refused by name', () => {
    const other = runnerSummary({ latencies: fast, cell: 'http:1k:keepalive' });
    expect(() =>
      mergeRunnerSummaries([
        { file: 'a.json', summary: runnerA },
        { file: 'b.json', summary: other },
      ]),
    ).toThrow('the summaries are of different cells (edge:1k:keepalive, http:1k:keepalive)');
    expect(() => mergeRunnerSummaries([{ file: 'notes.json', summary: { hello: 1 } }])).toThrow(
      'notes.json is not a k6 summary (no "metrics")',
    );
    expect(() => mergeRunnerSummaries([{ file: 'x.json', summary: { metrics: {} } }])).toThrow(
      'x.json has no http_reqs count',
    );
    expect(() => mergeRunnerSummaries([])).toThrow('no runner summaries to merge');
    const { meta, ...noMeta } = runnerA;
    expect(meta.cell).toBe('edge:1k:keepalive');
    expect(() => mergeRunnerSummaries([{ file: 'old.json', summary: noMeta }])).toThrow(
      'old.json has no "meta" block',
    );
  });

  test('page sizes follow the one grammar (cells.parseSize): 1.5k is refused', () => {
    const odd = runnerSummary({ latencies: fast, cell: 'edge:1.5k:keepalive', meta: { pageSize: '1.5k' } });
    expect(() => mergeRunnerSummaries([{ file: 'odd.json', summary: odd }])).toThrow(
      /odd\.json: meta does not name a cell: page size must look like/,
    );
    expect(() => parse(['--page-size', '1.5k'])).toThrow(
      /--page-size: page size must look like .* not '1\.5k'/,
    );
    expect(parse(['--page-size', '4k'])['page-size']).toBe('4k');
  });
});
