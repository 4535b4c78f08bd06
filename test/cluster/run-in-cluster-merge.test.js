'use strict';
// run-in-cluster merges the TestRun's runner summaries into one figure set: runners run side by
// side, so request rates add up, while percentiles come from the merged latency distribution,
// not from averaging the runners' percentiles. Pure logic on k6-shaped summaries, plus the CLI's
// --merge on a directory (no cluster needed).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');
const { mergeRunnerSummaries, formatMerged } = require('../../lib/cluster/merge-runners');
const { mergeDirectory, MERGED_FILE } = require('../../bin/cluster-k6');
const { trendOf } = require('../support/k6-trend');

/** A runner's summary as router-matrix.js writes it to SUMMARY_PATH (the fields the merge reads). */
function runnerSummary({
  latencies,
  seconds = 60,
  failed = 0,
  status502 = 0,
  vus = 32,
  cell = 'edge:1k:keepalive',
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
    meta: { script: 'router-matrix', cell, termination: 'edge', pageSize: 1024, connection: 'keepalive' },
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

describe('merging the runners of one TestRun', () => {
  const merged = mergeRunnerSummaries([
    { file: 'run-a-runner-1.json', summary: runnerA },
    { file: 'run-a-runner-2.json', summary: runnerB },
  ]);

  test('request counts and rates add up; the run lasts as long as its longest runner', () => {
    expect(merged.runners).toBe(2);
    expect(merged.requests).toBe(9000 + 1010);
    expect(merged.rpsPerRunner).toEqual([150, 16.6]);
    expect(merged.rps).toBeCloseTo(9000 / 60 + 1010 / 61, 1);
    expect(merged.seconds).toBe(61);
    expect(merged.vusMax).toBe(64);
    expect(merged).toMatchObject({ cell: 'edge:1k:keepalive', termination: 'edge', pageSize: 1024 });
  });

  test('failures and error counters are summed over the runners', () => {
    expect(merged.failed).toBe(10);
    expect(merged.errorRate).toBeCloseTo(10 / 10010, 6);
    expect(merged.errors).toEqual({ errors_status_502: 10 });
  });

  test('percentiles come from the merged distribution, not from averaging the runners', () => {
    const pooled = [...fast, ...slow];
    const averagedP99 =
      (runnerA.metrics.request_total.values['p(99)'] + runnerB.metrics.request_total.values['p(99)']) / 2;
    expect(merged.latency.count).toBe(10000);
    expect(Math.abs(merged.latency.p99 - exactPercentile(pooled, 99))).toBeLessThan(2);
    expect(Math.abs(merged.latency.p99 - averagedP99)).toBeGreaterThan(20);
    expect(Math.abs(merged.latency.p95 - exactPercentile(pooled, 95))).toBeLessThan(2);
    // The median of the pool lies in the fast runner's range; averaging medians would put it near 38 ms.
    expect(merged.latency.p50).toBeLessThan(1.5);
    expect(merged.latency.max).toBe(99);
    expect(merged.serviceTime.p50).toBeCloseTo(0.5, 3);
    expect(merged.tlsHandshake).toBeNull();
  });

  test('the terminal lines show the sum and the merged percentiles', () => {
    const text = formatMerged(merged);
    expect(text).toMatch(/^merged 2 runners, cell edge:1k:keepalive, 61 s$/m);
    expect(text).toContain('10010 (166.6/s = 150 + 16.6), failed 0.10 % (errors_status_502 10)');
    expect(text).toMatch(/latency {4}p50 1\.\d\d ms {2}p90 \S+ ms {2}p99 9\d\.\d\d ms {2}max 99\.00 ms/);
  });

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
      'x.json has no http_reqs count and rate',
    );
    expect(() => mergeRunnerSummaries([])).toThrow('no runner summaries to merge');
  });
});

describe('run-in-cluster --merge DIR', () => {
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

  test('merges the summaries in a directory, prints the figures and writes merged.json, without oc', () => {
    const r = cli('--merge', dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/merged 2 runners, cell edge:1k:keepalive/);
    expect(r.stdout).toContain(`merged figures in ${path.join(dir, MERGED_FILE)}`);
    const written = JSON.parse(fs.readFileSync(path.join(dir, MERGED_FILE), 'utf8'));
    expect(written).toMatchObject({ runners: 2, requests: 10010, files: expect.any(Array) });
    expect(written.latency.p99).toBeGreaterThan(90);
    // A second merge ignores its own merged.json.
    expect(mergeDirectory(dir).runners).toBe(2);
  });

  test('only the files of this run when given', () => {
    expect(mergeDirectory(dir, { files: ['run-x-k6-testrun-1.json'] })).toMatchObject({
      runners: 1,
      rps: 150,
    });
  });

  test('a broken file is named, and nothing is written', () => {
    fs.writeFileSync(path.join(dir, 'run-x-k6-testrun-3.json'), '{"metrics": ');
    const r = cli('--merge', dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/run-x-k6-testrun-3\.json is not valid JSON/);
    expect(fs.existsSync(path.join(dir, MERGED_FILE))).toBe(false);
  });

  test('an empty or missing directory says so', () => {
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty);
    expect(cli('--merge', empty).stderr).toMatch(/holds no runner summaries/);
    expect(cli('--merge', path.join(dir, 'nope')).stderr).toMatch(/no such directory/);
  });
});
