'use strict';
// The one reducer from k6 summaries (router-matrix.js handleSummary) to a cell's figures, for the lab
// matrix and the in-cluster run alike; only how the summaries combine differs (combineParts).
// Percentiles come from the merged distribution either way (./distribution.js).
const { summarize } = require('./distribution');
const { busyVus } = require('../../k6/lib/generator');
const { parseCellName, cellName } = require('../../k6/lib/cells');
const { protocolOfMetric } = require('../../k6/lib/protocols');

const OK = '{expected_response:true}';
// What the latency percentiles measure, by the generator that made the samples.
const LATENCY_BASIS = {
  k6: 'request_total: blocked + duration of successful responses (ms)',
  wrk: 'wrk: from writing the request to reading the response, every response (ms); the connection set-up (TCP and the resumed TLS handshake) is not included',
  haload: 'haload prints mean times only: no percentiles',
};
const COMBINE_MODES = ['sequential', 'concurrent'];

const sum = (list) => list.reduce((a, b) => a + b, 0);
const max = (list) => Math.max(0, ...list);
const round = (v, digits = 3) => (v === null || v === undefined ? null : Number(v.toFixed(digits)));

function values(summary, name) {
  const metric = summary.metrics[name];
  return metric ? metric.values : undefined;
}

/** Throws unless `summary` is a k6 summary the reducer can read; `file` names it in the message. */
function checkSummary(summary, file) {
  if (!summary || typeof summary !== 'object' || !summary.metrics || typeof summary.metrics !== 'object') {
    throw new Error(`${file} is not a k6 summary (no "metrics")`);
  }
  const reqs = values(summary, 'http_reqs');
  if (!reqs || typeof reqs.count !== 'number') {
    throw new Error(`${file} has no http_reqs count: not a k6 summary of an HTTP run`);
  }
  if (!summary.state || !(summary.state.testRunDurationMs > 0)) {
    throw new Error(`${file} has no state.testRunDurationMs: not a k6 summary of a finished run`);
  }
}

/**
 * The cell a summary measured, from its meta block; throws naming `file` when the block is
 * missing or spells the cell in a way the vocabulary refuses (k6/lib/cells.js).
 */
function cellOfSummary(summary, file) {
  const meta = summary.meta;
  if (!meta || typeof meta !== 'object') throw new Error(`${file} has no "meta" block: not router-matrix.js`);
  let cell;
  try {
    cell = parseCellName(cellName(meta));
  } catch (err) {
    throw new Error(`${file}: meta does not name a cell: ${err.message}`, { cause: err });
  }
  if (meta.cell !== cell.name) throw new Error(`${file}: meta.cell '${meta.cell}' is not ${cell.name}`);
  return cell;
}

/**
 * Errors by status: { '0': n, '502': n, other: n, wrongSize: n } (only non-zero entries), from
 * the script's own counters: every request that was not a 200 of the expected size, 3xx included
 * (k6's http_req_failed counts a 3xx as a success).
 */
function errorsByStatus(summaries) {
  const errors = {};
  for (const summary of summaries) {
    for (const [name, metric] of Object.entries(summary.metrics)) {
      const match = /^errors_(status_(\w+)|wrong_size)$/.exec(name);
      if (!match || !metric.values.count) continue;
      const key = match[2] === undefined ? 'wrongSize' : match[2];
      errors[key] = (errors[key] || 0) + metric.values.count;
    }
  }
  return errors;
}

/** Responses by HTTP protocol: { 'HTTP/1.1': n, 'HTTP/2.0': n, other: n } (non-zero entries). */
function protocolsOf(summaries) {
  const protocols = {};
  for (const summary of summaries) {
    for (const [name, metric] of Object.entries(summary.metrics)) {
      const proto = protocolOfMetric(name);
      if (!proto || !metric.values.count) continue;
      protocols[proto] = (protocols[proto] || 0) + metric.values.count;
    }
  }
  return protocols;
}

function crossedThresholds(summaries) {
  const crossed = new Set();
  for (const summary of summaries) {
    for (const [name, metric] of Object.entries(summary.metrics)) {
      for (const [expr, verdict] of Object.entries(metric.thresholds || {})) {
        if (!verdict.ok) crossed.add(`${name}: ${expr}`);
      }
    }
  }
  return [...crossed];
}

/** What one summary counted, the parts the combine modes add up. */
function partOf(summary) {
  const requests = (values(summary, 'http_reqs') || {}).count || 0;
  const failed = sum(Object.values(errorsByStatus([summary])));
  return {
    seconds: summary.state.testRunDurationMs / 1000,
    requests,
    ok: Math.max(0, requests - failed),
    // Active VUs (k6's `vus`; vus_max is only what was allocated), and the VUs actually busy.
    vusActive: (values(summary, 'vus') || values(summary, 'vus_max') || {}).max || 0,
    busyVus: busyVus(
      (values(summary, 'iterations') || {}).rate,
      (values(summary, 'iteration_duration') || {}).avg,
    ),
  };
}

/**
 * One summary's counts, the denominators of the cost per request: its successful responses and
 * its full TLS handshakes (successful requests that did one).
 */
function sampleCounts(summary) {
  return { ok: partOf(summary).ok, handshakes: (values(summary, 'tls_handshake') || {}).count || 0 };
}

/**
 * sequential: samples of one cell ran one after another (the matrix): time adds up, a rate is
 * requests over the summed time, VU figures are the largest sample's. concurrent: runners of one
 * TestRun ran side by side (the k6-operator): the run lasts as long as its longest runner, rates
 * and VU figures add up.
 */
function combineParts(parts, combine) {
  const rates = (field) => parts.map((p) => p[field] / p.seconds);
  if (combine === 'sequential') {
    const seconds = sum(parts.map((p) => p.seconds));
    return {
      seconds,
      rps: sum(parts.map((p) => p.requests)) / seconds,
      okRps: sum(parts.map((p) => p.ok)) / seconds,
      vusActive: max(parts.map((p) => p.vusActive)),
      busyVus: max(parts.map((p) => p.busyVus)),
    };
  }
  return {
    seconds: max(parts.map((p) => p.seconds)),
    rps: sum(rates('requests')),
    okRps: sum(rates('ok')),
    vusActive: sum(parts.map((p) => p.vusActive)),
    busyVus: sum(parts.map((p) => p.busyVus)),
  };
}

/**
 * A cell's figures from its k6 summaries. `combine`: 'sequential' (samples) or 'concurrent'
 * (runners). Returns the measured part of a results.json cell plus `load` (dropped iterations and
 * VU figures, which the cell files under `generator`).
 */
function reduceSummaries(summaries, { combine }) {
  if (!COMBINE_MODES.includes(combine)) throw new Error(`combine must be one of ${COMBINE_MODES.join(', ')}`);
  if (!summaries.length) throw new Error('no k6 summaries to reduce');
  const parts = summaries.map(partOf);
  const total = combineParts(parts, combine);
  const requests = sum(parts.map((p) => p.requests));
  const errors = errorsByStatus(summaries);
  const errorCount = sum(Object.values(errors));
  const merged = (name) => summarize(summaries.map((s) => values(s, name)).filter(Boolean));
  const latency = merged('request_total') || {};
  const service = merged('service_time');
  const handshakes = merged('tls_handshake');
  return {
    samples: summaries.length,
    combine,
    seconds: round(total.seconds, 2),
    requests,
    // okRps (successful responses per second) is the headline; rps counts failures too.
    rps: round(total.rps, 1),
    okRps: round(total.okRps, 1),
    rpsPerSample: parts.map((p) => round(p.requests / p.seconds, 1)),
    // Each sample's own p99 (the cell's p99 comes from the merged distribution), for comparisons.
    p99PerSample: summaries.map((s) => {
      const own = values(s, 'request_total');
      // A sample without one successful response has no latency to summarize.
      return own ? (summarize([own])?.p99 ?? null) : null;
    }),
    // Latency of successful responses as the client lived it (connection set-up included).
    p50: latency.p50 ?? null,
    p90: latency.p90 ?? null,
    p95: latency.p95 ?? null,
    p99: latency.p99 ?? null,
    max: latency.max ?? null,
    latencyBasis: LATENCY_BASIS[summaries[0].meta?.generator || 'k6'],
    errorRate: requests ? round(errorCount / requests, 6) : null,
    errors,
    protocols: protocolsOf(summaries),
    decomposition: {
      connectMs: merged(`http_req_connecting${OK}`),
      tlsHandshakeMs: merged(`http_req_tls_handshaking${OK}`),
      waitingMs: merged(`http_req_waiting${OK}`),
      requestMs: merged(`http_req_duration${OK}`),
      serviceMs: service,
      // waiting − service time per request: what the router and the network add.
      routerMs: merged('router_time'),
    },
    // Per handshake (requests that reused a connection did none); with keep-alive, one per VU.
    tlsHandshakeMs: handshakes ? round(handshakes.avg) : null,
    tlsHandshakes: handshakes ? handshakes.count : 0,
    serviceTimeMs: service ? { p50: service.p50, p99: service.p99, avg: service.avg } : null,
    thresholdsCrossed: crossedThresholds(summaries),
    load: {
      droppedIterations: sum(summaries.map((s) => (values(s, 'dropped_iterations') || {}).count || 0)),
      vusMax: total.vusActive,
      busyVus: round(total.busyVus, 1),
    },
  };
}

module.exports = {
  COMBINE_MODES,
  checkSummary,
  cellOfSummary,
  reduceSummaries,
  sampleCounts,
  protocolsOf,
  errorsByStatus,
};
