'use strict';
// A sample from a generator other than k6 (wrk, haload) in the shape of k6's summary that
// lib/results-model/reduce.js reads: its meta block, the counters both write, and the file raw/ keeps.
const fs = require('node:fs');
const { valuesOf } = require('../../k6/lib/cells');

/**
 * The meta block router-matrix.js writes, for a closed model of `load` connections or users over
 * `durationSeconds`; `extra` adds what only that generator knows (haload's protocol).
 */
function foreignMeta({ script, generator, cell, url, target, executor, load, durationSeconds, extra = {} }) {
  return {
    script,
    generator,
    cell: cell.name,
    ...valuesOf(cell),
    url,
    target,
    ...extra,
    executor,
    vus: load,
    maxVus: load,
    rate: null,
    duration: `${durationSeconds}s`,
    tlsVerify: false,
  };
}

/** k6's counter over `seconds`, and its vus gauge for a closed model of `vus`. Pure. */
const counter = (seconds) => (n) => ({ type: 'counter', values: { count: n, rate: n / seconds } });
const vusGauge = (vus) => ({ type: 'gauge', values: { value: vus, min: vus, max: vus } });

/** Writes the summary into the sample file, as k6 writes its SUMMARY_PATH, so raw/ reads the same. */
function writeSummary(summaryPath, summary) {
  fs.writeFileSync(summaryPath, JSON.stringify(summary, null, 1));
}

module.exports = { foreignMeta, counter, vusGauge, writeSummary };
