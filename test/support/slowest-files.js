'use strict';
// A Jest reporter: after the run, the slowest test files and the run's total, so that a file
// that grew slower is seen the day it does (registered in jest.config.js beside 'default').
const path = require('node:path');

const COUNT = 10;

/** Seconds, one decimal: "12.3 s". */
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The report's lines from Jest's per-file results ({ testFilePath, perfStats: { start, end } }):
 * the `count` slowest files, slowest first, their paths relative to `root`, and the total of every
 * file's time (wall time of the run when the files ran one at a time).
 */
function slowestFilesReport(testResults, { root, count = COUNT } = {}) {
  const files = testResults
    .map((r) => ({ file: path.relative(root, r.testFilePath), ms: r.perfStats.end - r.perfStats.start }))
    .filter((f) => Number.isFinite(f.ms))
    .sort((a, b) => b.ms - a.ms);
  if (!files.length) return [];
  const total = files.reduce((sum, f) => sum + f.ms, 0);
  const shown = files.slice(0, count);
  const width = Math.max(...shown.map((f) => seconds(f.ms).length));
  return [
    `The ${shown.length} slowest of ${files.length} test files:`,
    ...shown.map((f) => `  ${seconds(f.ms).padStart(width)}  ${f.file}`),
    `All ${files.length} files: ${seconds(total)}`,
  ];
}

class SlowestFilesReporter {
  constructor(globalConfig) {
    this.root = globalConfig.rootDir;
  }

  onRunComplete(contexts, results) {
    const lines = slowestFilesReport(results.testResults, { root: this.root });
    if (lines.length) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}

module.exports = SlowestFilesReporter;
module.exports.slowestFilesReport = slowestFilesReport;
