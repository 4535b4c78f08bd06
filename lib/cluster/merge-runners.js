'use strict';
// One figure set for a TestRun from its N runners' k6 summaries. The runners ran at the same time,
// each with its share of the VUs: counts and request rates add up; percentiles come from the
// merged latency distribution (lib/results/distribution.js: the mixture of the runners'
// quantile grids, weighted by count), never from averaging the runners' percentiles.
const { summarize } = require('../results/distribution');

const OK = '{expected_response:true}';

/** Latency metrics merged, by the name they get in the merged figures. */
const TRENDS = {
  latency: 'request_total',
  requestDuration: `http_req_duration${OK}`,
  serviceTime: 'service_time',
  routerTime: 'router_time',
  tlsHandshake: 'tls_handshake',
};

const round = (v, digits) => Number(v.toFixed(digits));
const sum = (list) => list.reduce((a, b) => a + b, 0);

function values(summary, name) {
  const metric = summary.metrics[name];
  return metric ? metric.values : undefined;
}

/** Throws unless `summary` is a k6 summary this merge can read; `file` names it in the message. */
function checkSummary(summary, file) {
  if (!summary || typeof summary !== 'object' || !summary.metrics || typeof summary.metrics !== 'object') {
    throw new Error(`${file} is not a k6 summary (no "metrics")`);
  }
  const reqs = values(summary, 'http_reqs');
  if (!reqs || typeof reqs.count !== 'number' || typeof reqs.rate !== 'number') {
    throw new Error(`${file} has no http_reqs count and rate: not a k6 summary of an HTTP run`);
  }
}

/**
 * Merges runner summaries: `runners` is [{ file, summary }] (summary: the JSON k6 wrote to
 * SUMMARY_PATH, `meta` included). Throws, naming the file, on a summary that is not one, or on
 * runners of different cells.
 */
function mergeRunnerSummaries(runners) {
  if (!runners.length) throw new Error('no runner summaries to merge');
  for (const { file, summary } of runners) checkSummary(summary, file);
  const cells = new Set(runners.map((r) => (r.summary.meta || {}).cell));
  if (cells.size > 1) {
    throw new Error(
      `the summaries are of different cells (${[...cells].join(', ')}): merge one run at a time`,
    );
  }
  const summaries = runners.map((r) => r.summary);
  const meta = summaries[0].meta || {};
  const count = (name, field = 'count') => sum(summaries.map((s) => (values(s, name) || {})[field] || 0));

  const requests = count('http_reqs');
  // The script's own verdict (a 200 of the right size) where it keeps one; k6's otherwise.
  const failedMetric = summaries.every((s) => values(s, 'request_failed'))
    ? 'request_failed'
    : 'http_req_failed';
  const failed = count(failedMetric, 'passes');
  const errors = {};
  for (const summary of summaries) {
    for (const [name, metric] of Object.entries(summary.metrics)) {
      if (/^errors_/.test(name) && metric.values.count) {
        errors[name] = (errors[name] || 0) + metric.values.count;
      }
    }
  }
  const rpsPerRunner = summaries.map((s) => values(s, 'http_reqs').rate);
  const latency = {};
  for (const [key, metric] of Object.entries(TRENDS)) {
    latency[key] = summarize(summaries.map((s) => values(s, metric)).filter(Boolean));
  }
  return {
    runners: runners.length,
    files: runners.map((r) => r.file),
    cell: meta.cell ?? null,
    termination: meta.termination ?? null,
    pageSize: meta.pageSize ?? null,
    connection: meta.connection ?? null,
    // The runners ran side by side: the run lasted as long as the longest one.
    seconds: round(Math.max(...summaries.map((s) => ((s.state || {}).testRunDurationMs || 0) / 1000)), 2),
    requests,
    // Rates add up: each runner drove its own share of the VUs at the same time.
    rps: round(sum(rpsPerRunner), 1),
    rpsPerRunner: rpsPerRunner.map((v) => round(v, 1)),
    failed,
    errorRate: requests ? round(failed / requests, 6) : null,
    errors,
    droppedIterations: count('dropped_iterations'),
    vusMax: sum(summaries.map((s) => (values(s, 'vus_max') || {}).max || 0)),
    ...latency,
    latencyBasis: 'merged distribution of the runners (not an average of their percentiles); ms',
  };
}

const ms = (v) => (v === null || v === undefined ? '-' : `${v.toFixed(2)} ms`);

/** The merged figures as a few lines for the terminal. */
function formatMerged(m) {
  const trend = (t) => (t ? `p50 ${ms(t.p50)}  p90 ${ms(t.p90)}  p99 ${ms(t.p99)}  max ${ms(t.max)}` : '-');
  const errorList = Object.entries(m.errors).map(([name, n]) => `${name} ${n}`);
  return [
    `merged ${m.runners} runners${m.cell ? `, cell ${m.cell}` : ''}, ${m.seconds} s`,
    `  requests   ${m.requests} (${m.rps}/s = ${m.rpsPerRunner.join(' + ')}), failed ${
      m.errorRate === null ? '-' : `${(m.errorRate * 100).toFixed(2)} %`
    }${errorList.length ? ` (${errorList.join(', ')})` : ''}${
      m.droppedIterations ? `, dropped iterations ${m.droppedIterations}` : ''
    }`,
    `  latency    ${trend(m.latency || m.requestDuration)} (successful responses)`,
    `  service    ${trend(m.serviceTime)} (Server-Timing app;dur)`,
    `  TLS        ${m.tlsHandshake ? `avg ${ms(m.tlsHandshake.avg)} per handshake, ${m.tlsHandshake.count} handshakes` : '-'}`,
  ].join('\n');
}

module.exports = { mergeRunnerSummaries, formatMerged, TRENDS };
