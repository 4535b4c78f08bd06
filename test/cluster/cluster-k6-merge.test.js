'use strict';
// cluster:k6's merge of runner summaries into one cell, through the lab's reducer: rates add up,
// percentiles come from the merged distribution, not from averaging the runners'. Plus --merge on
// a directory (no cluster needed) and npm run report on what it wrote.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');
const { mergeRunnerSummaries, mergeDirectory } = require('../../lib/cluster/merge-runners');
const { describeMerged } = require('../../lib/report/console');
const { RESULTS_VERSION } = require('../../lib/results-model/document');
const { parseK6: parse } = require('../../lib/cluster/options');
const { trendOf } = require('../support/k6-trend');

/** A runner's summary as router-matrix.js writes it to SUMMARY_PATH (the fields the merge reads). */
function runnerSummary({
  latencies,
  seconds = 60,
  failed = 0,
  status502 = 0,
  vus = 32,
  cell = 'edge:1k:keepalive',
  meta = {},
}) {
  const requests = latencies.length + failed;
  const metrics = {
    http_reqs: {
      type: 'counter',
      contains: 'default',
      values: { count: requests, rate: requests / seconds },
    },
    request_failed: {
      type: 'rate',
      contains: 'default',
      values: { passes: failed, fails: latencies.length, rate: failed / requests },
    },
    request_total: { type: 'trend', contains: 'time', values: trendOf(latencies) },
    service_time: { type: 'trend', contains: 'time', values: trendOf(latencies.map(() => 0.5)) },
    vus_max: { type: 'gauge', contains: 'default', values: { value: vus, min: vus, max: vus } },
  };
  if (status502) metrics.errors_status_502 = { type: 'counter', values: { count: status502, rate: 0 } };
  return {
    // As router-matrix.js handleSummary writes it: VUS is the TestRun's total, split between runners.
    meta: {
      script: 'router-matrix',
      cell,
      termination: cell.split(':')[0],
      pageSize: 1024,
      connection: 'keepalive',
      target: 'cluster',
      executor: 'constant-vus',
      vus: 64,
      maxVus: 64,
      rate: null,
      duration: '1m',
      tlsVerify: true,
      ...meta,
    },
    state: { testRunDurationMs: seconds * 1000 },
    metrics,
  };
}

function exactPercentile(values, q) {
  return trendOf(values)[`p(${q})`];
}

// Runner A was lucky (a fast node), runner B was not: 9000 requests at 1.00-1.49 ms, 1000 at 50-99 ms.
const fast = Array.from({ length: 9000 }, (_, i) => 1 + (i % 50) / 100);
const slow = Array.from({ length: 1000 }, (_, i) => 50 + (i % 50));
const runnerA = runnerSummary({ latencies: fast, seconds: 60 });
const runnerB = runnerSummary({ latencies: slow, seconds: 61, failed: 10, status502: 10 });

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

describe('cluster:k6 --merge DIR', () => {
  let dir;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-cluster-merge-'));
    fs.writeFileSync(path.join(dir, 'run-x-k6-testrun-1.json'), JSON.stringify(runnerA));
    fs.writeFileSync(path.join(dir, 'run-x-k6-testrun-2.json'), JSON.stringify(runnerB));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cli = (...args) =>
    spawnSync(process.execPath, [path.join(ROOT, 'bin/cluster-k6.js'), ...args], {
      encoding: 'utf8',
      timeout: 30000,
    });

  test('merges the summaries in a directory into results.json, without oc, and npm run report renders it', () => {
    const r = cli('--merge', dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/merged 2 runners, cell edge:1k:keepalive/);
    expect(r.stdout).toContain(`results in ${path.join(dir, 'results.json')}`);
    const written = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'));
    expect(written).toMatchObject({
      version: RESULTS_VERSION,
      complete: true,
      environment: { target: 'cluster' },
    });
    expect(written.cells).toHaveLength(1);
    expect(written.cells[0]).toMatchObject({ requests: 10010, samples: 2, combine: 'concurrent' });
    expect(written.cells[0].raw).toEqual(['run-x-k6-testrun-1.json', 'run-x-k6-testrun-2.json']);
    expect(written.cells[0].p99).toBeGreaterThan(90);
    // A second merge ignores its own results.json.
    expect(mergeDirectory(dir).cells[0].samples).toBe(2);

    const report = spawnSync(process.execPath, [path.join(ROOT, 'bin/report.js'), dir], { encoding: 'utf8' });
    expect(report.stderr).toBe('');
    expect(report.status).toBe(0);
    const md = fs.readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toMatch(/\| edge:1k:keepalive \| – \| – \| – \| 166 \| [^\n]*\| unknown \(not measured\) \|/);
    expect(md).toMatch(/No verdict for 1 cell/);
    expect(md).toContain('| k6 | 2 runners side by side in the cluster (k6-operator) |');
    expect(fs.readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain('<svg');
  });

  test('only the files of this run when given', () => {
    expect(mergeDirectory(dir, { files: ['run-x-k6-testrun-1.json'] }).cells[0]).toMatchObject({
      samples: 1,
      rps: 150,
    });
  });

  test('a broken file is named, and nothing is written', () => {
    fs.writeFileSync(path.join(dir, 'run-x-k6-testrun-3.json'), '{"metrics": ');
    const r = cli('--merge', dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/run-x-k6-testrun-3\.json is not valid JSON/);
    expect(fs.existsSync(path.join(dir, 'results.json'))).toBe(false);
  });

  test('an empty or missing directory says so', () => {
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty);
    expect(cli('--merge', empty).stderr).toMatch(/holds no runner summaries/);
    expect(cli('--merge', path.join(dir, 'nope')).stderr).toMatch(/no such directory/);
  });
});

test('--merge refuses a directory that holds the summaries of two runs', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-k6-two-runs-'));
  try {
    for (const name of ['run-aaa-pod1.json', 'run-bbb-pod1.json'])
      fs.writeFileSync(path.join(dir, name), '{}');
    expect(() => mergeDirectory(dir)).toThrow(
      /holds the summaries of 2 runs \(run-aaa, run-bbb\): merge one run at a time/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
