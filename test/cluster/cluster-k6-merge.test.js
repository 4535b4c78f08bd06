'use strict';
// cluster:k6 --merge on a directory of runner summaries (no cluster needed), and npm run report on
// what it wrote.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');
const {
  mergeDirectory,
  mergeRunnerSummaries,
  writeClusterFigures,
} = require('../../lib/cluster/merge-runners');
const { runnerA, runnerB } = require('./support/runner-summaries');
const { RESULTS_VERSION } = require('../../lib/results-model/document');

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

describe("the TestRun's cell with the cluster's figures from Prometheus", () => {
  const runners = [
    { file: 'run-x-1.json', summary: runnerA },
    { file: 'run-x-2.json', summary: runnerB },
  ];
  const router = { ingressController: 'default', threads: 4, replicas: 2, source: 'IngressController' };
  const figures = {
    cores: { router: 2, 'data-service-a': 0.5, k6: 1.5 },
    instanceNames: ['data-service-a'],
    router: { responsesPerSec: 166, connectionsPerSec: 2, currentSessions: { median: 40, max: 41 } },
    errors: [],
    window: { start: '2026-11-29T10:00:00.500Z', end: '2026-11-29T10:00:59.500Z' },
  };

  test("every runner's CPU per request is the run's, and the cell gets a verdict", () => {
    const prometheus = { url: 'https://thanos', profile: 'openshift', scrapeIntervalSeconds: 30 };
    const results = mergeRunnerSummaries(runners, { cluster: { figures, prometheus, router } });
    const [cell] = results.cells;
    expect(results.environment).toMatchObject({ clusterRouter: router, prometheus });
    const seconds = 60; // the runners' duration, 1m
    const us = (2 * seconds * 1e6) / 10000; // the runners' successful requests
    expect(cell.cost.router.perRequestUs).toMatchObject({
      min: Number(us.toFixed(1)),
      max: Number(us.toFixed(1)),
    });
    expect(cell.router).toMatchObject({
      cpuCores: 2,
      metricsError: null,
      prometheus: { responsesPerSec: 166, windows: [figures.window, figures.window] },
    });
    expect(cell.generator.cpuCores).toBe(1.5);
    expect(cell.backend.instances).toEqual([{ name: 'data-service-a', cpuCores: 0.5 }]);
    expect(cell.limitedBy.by).not.toBe('unknown');
  });

  test('the figures saved beside the summaries come back with --merge', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-cluster-figures-'));
    try {
      runners.forEach((r) => fs.writeFileSync(path.join(dir, r.file), JSON.stringify(r.summary)));
      writeClusterFigures(dir, { figures, prometheus: null, router });
      const [cell] = mergeDirectory(dir).cells;
      expect(cell.router).toMatchObject({ cpuCores: 2, metricsError: null });
      expect(cell.samples).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('without --prometheus the cell says why it has no verdict', () => {
    const [cell] = mergeRunnerSummaries(runners).cells;
    expect(cell.router.metricsError).toMatch(/^no --prometheus/);
    expect(cell.limitedBy.by).toBe('unknown');
  });
});
