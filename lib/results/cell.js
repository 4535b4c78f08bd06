'use strict';
// Turns the samples of one cell (raw k6 summaries plus CPU readings) into its results.json
// entry. Pure: the saturation baseline across cells is applied afterwards (applyBackendVerdicts).
const { summarize } = require('./distribution');
const { generatorVerdict, backendVerdict, hostVerdict } = require('./verdicts');
const { busyVus } = require('../../k6/lib/generator');

const OK = '{expected_response:true}';

function values(summary, name) {
  const metric = summary.metrics[name];
  return metric ? metric.values : undefined;
}

function sum(list) {
  return list.reduce((a, b) => a + b, 0);
}

function mean(list) {
  return list.length ? sum(list) / list.length : null;
}

const round = (v, digits = 3) => (v === null || v === undefined ? null : Number(v.toFixed(digits)));

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

/** Average cores each watched process used across samples. */
function averageCores(samples, name) {
  const list = samples.map((s) => s.cpu && s.cpu.cores[name]).filter((v) => typeof v === 'number');
  return list.length ? round(mean(list), 2) : null;
}

/**
 * cell: { name, termination, pageSize, connection }; samples: [{ summary, cpu, k6AllowedCores,
 * rawFile }]; instanceNames: data-service names watched.
 */
function buildCellResult(cell, samples, { instanceNames = [], redisNames = [], executor, maxVus } = {}) {
  const summaries = samples.map((s) => s.summary);
  const requests = sum(summaries.map((s) => (values(s, 'http_reqs') || {}).count || 0));
  const seconds = sum(summaries.map((s) => s.state.testRunDurationMs / 1000));
  const errors = errorsByStatus(summaries);
  const errorCount = sum(Object.values(errors));
  const perSampleRps = summaries.map((s) => (values(s, 'http_reqs') || {}).rate || 0);
  const merged = (name) => summarize(summaries.map((s) => values(s, name)).filter(Boolean));

  const latency = merged('request_total') || {};
  const request = merged(`http_req_duration${OK}`);
  const service = merged('service_time');
  const dropped = sum(summaries.map((s) => (values(s, 'dropped_iterations') || {}).count || 0));
  // Active VUs (k6's `vus`; vus_max is only what was allocated), and the VUs actually busy.
  const vusActiveMax = Math.max(
    ...summaries.map((s) => (values(s, 'vus') || values(s, 'vus_max') || {}).max || 0),
  );
  const vusBusy = Math.max(
    ...summaries.map((s) =>
      busyVus((values(s, 'iterations') || {}).rate, (values(s, 'iteration_duration') || {}).avg),
    ),
  );
  const handshakes = merged('tls_handshake');

  const k6CpuCores = averageCores(samples, 'k6');
  const hostBusy = mean(
    samples.map((s) => s.cpu && s.cpu.hostBusyFraction).filter((v) => typeof v === 'number'),
  );
  const hostCores = samples[0].cpu ? samples[0].cpu.hostCores : null;
  const generator = {
    ...generatorVerdict({
      k6CpuCores,
      k6AllowedCores: samples[0].k6AllowedCores,
      hostBusyFraction: hostBusy,
      hostCores,
      labCpuCores: Object.fromEntries(
        ['router', ...instanceNames].map((name) => [name, averageCores(samples, name)]),
      ),
      droppedIterations: dropped,
      executor,
      vusActiveMax,
      maxVus,
      busyVus: vusBusy,
    }),
    k6CpuCores,
    k6AllowedCores: samples[0].k6AllowedCores,
    droppedIterations: dropped,
    vusMax: vusActiveMax,
    maxVus: maxVus ?? null,
    busyVus: round(vusBusy, 1),
  };
  const instances = instanceNames.map((name) => ({ name, cpuCores: averageCores(samples, name) }));

  return {
    name: cell.name,
    termination: cell.termination,
    pageSize: cell.pageSize,
    connection: cell.connection,
    samples: samples.length,
    seconds: round(seconds, 2),
    requests,
    // okRps (successful responses per second) is the headline; rps counts failures too.
    rps: round(requests / seconds, 1),
    okRps: round(Math.max(0, requests - errorCount) / seconds, 1),
    rpsPerSample: perSampleRps.map((v) => round(v, 1)),
    // Latency of successful responses as the client lived it (connection set-up included).
    p50: latency.p50 ?? null,
    p90: latency.p90 ?? null,
    p95: latency.p95 ?? null,
    p99: latency.p99 ?? null,
    max: latency.max ?? null,
    latencyBasis: 'request_total: blocked + duration of successful responses (ms)',
    errorRate: requests ? round(errorCount / requests, 6) : null,
    errors,
    decomposition: {
      connectMs: merged(`http_req_connecting${OK}`),
      tlsHandshakeMs: merged(`http_req_tls_handshaking${OK}`),
      waitingMs: merged(`http_req_waiting${OK}`),
      requestMs: request,
      serviceMs: service,
      // waiting − service time per request: what the router and the network add.
      routerMs: merged('router_time'),
    },
    // Per handshake (requests that reused a connection did none); with keep-alive, one per VU.
    tlsHandshakeMs: handshakes ? round(handshakes.avg) : null,
    tlsHandshakes: handshakes ? handshakes.count : 0,
    serviceTimeMs: service ? { p50: service.p50, p99: service.p99, avg: service.avg } : null,
    generator,
    backend: { saturated: false, reasons: [], instances },
    router: { cpuCores: averageCores(samples, 'router') },
    host: {
      busyFraction: round(hostBusy, 3),
      cores: hostCores,
      ...hostVerdict({
        hostBusyFraction: hostBusy,
        hostCores,
        labCpuCores: sum(
          ['k6', 'router', ...instanceNames, ...redisNames].map((name) => averageCores(samples, name) || 0),
        ),
      }),
    },
    thresholdsCrossed: crossedThresholds(summaries),
    raw: samples.map((s) => s.rawFile).filter(Boolean),
  };
}

/**
 * Backend verdicts need the whole run: service time is compared with the lightest cell's (the
 * lowest service p50 of the run). Mutates and returns the cells.
 */
function applyBackendVerdicts(cells) {
  const withService = cells.filter((c) => c.serviceTimeMs && c.serviceTimeMs.p50 !== null);
  const lightest = withService.reduce(
    (best, c) => (!best || c.serviceTimeMs.p50 < best.serviceTimeMs.p50 ? c : best),
    null,
  );
  for (const cell of cells) {
    const verdict = backendVerdict({
      instances: cell.backend.instances.filter((i) => i.cpuCores !== null),
      serviceP50Ms: cell.serviceTimeMs ? cell.serviceTimeMs.p50 : null,
      baselineServiceP50Ms: lightest ? lightest.serviceTimeMs.p50 : null,
      baselineCell: lightest && lightest !== cell ? lightest.name : null,
    });
    cell.backend = { ...cell.backend, ...verdict };
  }
  return cells;
}

module.exports = { buildCellResult, applyBackendVerdicts, errorsByStatus };
