'use strict';
// haload as a cell's own generator, where neither k6 (it never resumes a TLS session) nor wrk (it
// sends no SNI of its own) can run the cell: a passthrough close cell with resumed sessions. Its
// figures go into the shape of router-matrix.js's k6 summary that lib/results-model/reduce.js reads.
const { haloadGenerator } = require('./haload');
const { parseHaloadOutput } = require('./haload-output');
const { runTool } = require('./runner');
const { PROTOCOL_METRICS } = require('../../k6/lib/protocols');
const { foreignMeta, counter, vusGauge, writeSummary } = require('./foreign-summary');

// haload's status classes that count as errors, as k6's script counts every non-200.
const ERROR_CLASSES = ['1xx', '3xx', '4xx', '5xx'];

/**
 * haload's figures (./haload-output.js) as a k6 summary: counters, errors by status class (status 0
 * for connections that failed), responses by protocol; no latency distribution, since haload
 * prints mean latencies only. Pure.
 */
function haloadSummary(figures, meta, durationSeconds) {
  const count = counter(durationSeconds);
  const sent = figures.requests + figures.errors;
  const metrics = {
    http_reqs: count(sent),
    iterations: count(sent),
    [PROTOCOL_METRICS[meta.protocol === 'h2' ? 'HTTP/2.0' : 'HTTP/1.1']]: count(figures.requests),
    vus: vusGauge(meta.vus),
  };
  if (figures.meanTtlbMs !== null)
    metrics.iteration_duration = { type: 'trend', values: { avg: figures.meanTtlbMs } };
  for (const status of ERROR_CLASSES) {
    if (figures.statuses[status] > 0) metrics[`errors_status_${status}`] = count(figures.statuses[status]);
  }
  if (figures.errors > 0) metrics.errors_status_0 = count(figures.errors);
  return { meta, state: { testRunDurationMs: durationSeconds * 1000 }, metrics };
}

/**
 * Why a run did not measure a close cell, or null: haload asked for one request per connection
 * opened far fewer connections than it sent requests.
 */
function notClose(figures) {
  if (!(figures.requests > 0) || figures.connections >= figures.requests * 0.9) return null;
  return `haload opened ${figures.connections} connections for ${figures.requests} requests, not one per request`;
}

/**
 * haload driving a close cell: `users` connections at a time, each request on a new one that
 * resumes the TLS session (or not: `resume`). Parsed like a k6 sample: { summary, cpu, counters, allowedCores }.
 */
const haloadCellGenerator = {
  ...haloadGenerator,
  describe: ({ cell }) => `haload on cell ${cell.name}`,
  parse(run, { cell, url, users, durationSeconds, summaryPath, target, protocol = 'h1' }) {
    const figures = parseHaloadOutput(run.output);
    if (figures.requests === 0) throw new Error(`haload got no response from ${url} in cell ${cell.name}`);
    const reused = notClose(figures);
    if (reused) throw new Error(`${cell.name}: ${reused}, so it did not measure a close cell`);
    const meta = foreignMeta({
      script: 'haload-cell',
      generator: 'haload',
      cell,
      url,
      target,
      executor: 'users',
      load: users,
      durationSeconds,
      extra: { protocol },
    });
    const summary = haloadSummary(figures, meta, durationSeconds);
    writeSummary(summaryPath, summary);
    return { ...run, summary };
  },
};

/** Runs haload once for a close cell; `watch`, `cpus`, `counters` and `signal` as runTool takes them. */
function runHaloadCell({ watch, cpus, counters, signal, ...input }) {
  return runTool(haloadCellGenerator, { ...input, perConnection: 1 }, { watch, cpus, counters, signal });
}

module.exports = { haloadSummary, notClose, haloadCellGenerator, runHaloadCell };
