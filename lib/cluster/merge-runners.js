'use strict';
// The in-cluster run (npm run cluster:k6) as a results document: the runners' summaries reduce as
// concurrent parts (rates add up, percentiles from the merged distribution), and the pods' CPU
// from Prometheus over the run (./testrun-figures.js) where it was read, else the cell says why.
const fs = require('node:fs');
const path = require('node:path');
const { sizeLabel } = require('../../k6/lib/cells');
const { durationSeconds } = require('../../k6/lib/config');
const { checkSummary, cellOfSummary, sampleCounts } = require('../results-model/reduce');
const { NO_PROMETHEUS } = require('../matrix/cluster-figures');
const { buildCellResult } = require('../results-model/cell');
const {
  RESULTS_FILE,
  createRun,
  addCell,
  finalize,
  tlsBlock,
  unknownEnvironment,
  writeResults,
} = require('../results-model/document');

/** What a runner's meta block must say about the load model (router-matrix.js handleSummary). */
const LOAD_META = ['executor', 'vus', 'maxVus', 'rate', 'duration'];

/**
 * The cell of the runners' summaries; throws, naming the file, on a summary that is not one, and
 * on runners of different cells.
 */
function runnersCell(runners) {
  const cells = runners.map(({ file, summary }) => {
    checkSummary(summary, file);
    const cell = cellOfSummary(summary, file);
    const missing = LOAD_META.filter((key) => !(key in summary.meta));
    if (missing.length) throw new Error(`${file}: meta has no ${missing.join(', ')}`);
    return cell;
  });
  const names = [...new Set(cells.map((c) => c.name))];
  if (names.length > 1) {
    throw new Error(`the summaries are of different cells (${names.join(', ')}): merge one run at a time`);
  }
  return cells[0];
}

/**
 * The runners as the cell's samples, each with the cluster's figures over the whole TestRun
 * (`cluster`: { cores, instanceNames, router, errors, window }, or null: not read). Every runner
 * carries the run's cores, and the CPU seconds of its share of the requests, so each runner's CPU
 * per request is the run's: the total CPU over the total requests.
 */
function runnerSamples(runners, cluster, seconds) {
  const samples = runners.map((r) => ({ summary: r.summary, rawFile: r.file }));
  if (!cluster) {
    return samples.map((s) => ({
      ...s,
      cluster: { router: null, errors: [NO_PROMETHEUS], instanceNames: [] },
    }));
  }
  const ok = samples.map((s) => sampleCounts(s.summary).ok);
  const total = ok.reduce((a, b) => a + b, 0) || 1;
  const { cores, router, errors, instanceNames, window } = cluster;
  return samples.map((s, i) => ({
    ...s,
    cpu: {
      cores: { ...cores },
      cpuSeconds: Object.fromEntries(
        Object.entries(cores).map(([n, c]) => [n, (c * seconds * ok[i]) / total]),
      ),
      hostBusyFraction: null,
      hostCores: null,
    },
    cluster: { router, errors, instanceNames, window },
  }));
}

/**
 * One finished results document from runner summaries: `runners` is [{ file, summary }] (the JSON
 * k6 wrote to SUMMARY_PATH, meta included). `id`, `finishedAt` (ISO time; a summary holds no
 * clock time, so the start is the end less the longest runner's time), `namespace`: what the
 * caller knows of the run.
 */
function mergeRunnerSummaries(
  runners,
  { id = 'cluster', finishedAt = new Date().toISOString(), namespace = null, cluster = null } = {},
) {
  if (!runners.length) throw new Error('no runner summaries to merge');
  const cell = runnersCell(runners);
  const metas = runners.map((r) => r.summary.meta);
  const meta = metas[0];
  const seconds = durationSeconds(meta.duration) || 0;
  const figures = buildCellResult(cell, runnerSamples(runners, cluster && cluster.figures, seconds), {
    combine: 'concurrent',
    maxVus: meta.maxVus,
    instanceNames: cluster && cluster.figures ? cluster.figures.instanceNames : [],
  });
  const doc = createRun({
    id,
    startedAt: new Date(Date.parse(finishedAt) - figures.seconds * 1000).toISOString(),
    options: {
      quick: false,
      sizes: [sizeLabel(cell.pageSize)],
      cells: [cell.name],
      tlsSessions: cell.tlsSession ? [cell.tlsSession] : [],
      durationSeconds: durationSeconds(meta.duration) || figures.seconds,
      samples: 1,
      warmupSeconds: 0,
      cooldownSeconds: 0,
      executor: meta.executor,
      vus: meta.vus,
      rate: meta.rate,
      maxVus: meta.maxVus,
      crossCheck: false,
    },
    environment: unknownEnvironment({
      target: 'cluster',
      namespace,
      prometheus: cluster ? cluster.prometheus : null,
      clusterRouter: cluster ? cluster.router : null,
    }),
    // A runner that skipped verification on a route that needs none skipped it on purpose.
    tls: tlsBlock({
      trust: "the k6 runner image's trust store",
      insecure: cell.termination !== 'passthrough' && metas.some((m) => m.tlsVerify === false),
    }),
  });
  addCell(doc, figures);
  return finalize(doc, { complete: true, finishedAt });
}

/** What Prometheus said of the run, kept beside the summaries so that --merge keeps it. */
const CLUSTER_FIGURES_FILE = 'prometheus-figures.json';

function writeClusterFigures(dir, cluster) {
  fs.writeFileSync(path.join(dir, CLUSTER_FIGURES_FILE), `${JSON.stringify(cluster, null, 2)}\n`);
}

function readClusterFigures(dir) {
  const file = path.join(dir, CLUSTER_FIGURES_FILE);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
}

/** The summary files in `dir` (every *.json but results.json and the figures), of one run; throws otherwise. */
function summaryFiles(dir) {
  let files;
  try {
    files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json') && f !== RESULTS_FILE && f !== CLUSTER_FIGURES_FILE);
  } catch (err) {
    throw new Error(`cannot read ${dir}: ${err.code === 'ENOENT' ? 'no such directory' : err.message}`, {
      cause: err,
    });
  }
  if (!files.length) throw new Error(`${dir} holds no runner summaries (*.json)`);
  return files;
}

/**
 * Reads the runner summaries in `dir` (`files`, default every *.json but results.json), merges
 * them into one results document (with `cluster`: { figures, prometheus, router } read over the
 * run, see ./testrun-figures.js), writes dir/results.json and returns the document. Throws
 * naming a file that is not a runner summary. The run's end is the newest summary file's time.
 */
function mergeDirectory(
  dir,
  { files = summaryFiles(dir), namespace, cluster = readClusterFigures(dir) } = {},
) {
  // Each run names its files <run id>-<pod>.json: two runs in one directory (a reused --out)
  // would add up as if their runners had run side by side.
  const runs = new Set(files.map((f) => (/^(run-[a-z0-9]+)-/.exec(f) || [])[1]).filter(Boolean));
  if (runs.size > 1) {
    throw new Error(
      `${dir} holds the summaries of ${runs.size} runs (${[...runs].join(', ')}): merge one run at a time (move the others away)`,
    );
  }
  let newest = 0;
  const runners = [...files].sort().map((file) => {
    const where = path.join(dir, file);
    newest = Math.max(newest, fs.statSync(where).mtimeMs);
    try {
      return { file, summary: JSON.parse(fs.readFileSync(where, 'utf8')) };
    } catch (err) {
      throw new Error(`${where} is not valid JSON: ${err.message}`, { cause: err });
    }
  });
  let results;
  try {
    const finishedAt = new Date(newest).toISOString();
    results = mergeRunnerSummaries(runners, { id: path.basename(dir), finishedAt, namespace, cluster });
  } catch (err) {
    throw new Error(`${dir}: ${err.message}`, { cause: err });
  }
  writeResults(dir, results);
  return results;
}

module.exports = { mergeRunnerSummaries, mergeDirectory, writeClusterFigures };
