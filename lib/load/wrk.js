'use strict';
// wrk on the tool runner: a C client far cheaper per request than k6 (HTTP/1.1 only; SNI from the
// URL's host). It runs flat out beside a k6 cell (the cross-check, wrkGenerator), and as the
// generator of a close cell whose TLS sessions are resumed (wrkCellGenerator), which k6 cannot do.
const fs = require('node:fs');
const path = require('node:path');
const { parseWrkOutput } = require('./wrk-output');
const { runTool, coresOf } = require('./runner');
const { QUANTILES } = require('../../k6/lib/distribution');
const { PROTOCOL_METRICS } = require('../../k6/lib/protocols');
const { foreignMeta, counter, vusGauge, writeSummary } = require('./foreign-summary');

const CELL_SCRIPT = path.join(__dirname, 'wrk-cell.lua');

/** wrk as the tool runner runs it: `threads` threads, `connections` connections, --latency. */
const wrkGenerator = {
  name: 'wrk',
  describe: ({ url }) => `wrk against ${url}`,
  command({ wrk, url, host, connections, threads, durationSeconds }) {
    const args = ['-t', String(threads), '-c', String(Math.max(connections, threads))];
    args.push('-d', `${durationSeconds}s`, '--latency', '--timeout', '5s');
    if (host) args.push('-H', `Host: ${host}`);
    args.push(url);
    return { file: wrk, args };
  },
  parse(run, { threads, connections }) {
    return {
      ...parseWrkOutput(run.output),
      cpuCores: coresOf(run, 'wrk'),
      // The router's, while wrk ran (watched): what the router spent per request under this tool.
      routerCpuCores: coresOf(run, 'router'),
      threads,
      connections,
    };
  },
};

/**
 * Runs wrk for durationSeconds with `connections` connections; resolves the parsed result.
 * `cpus` pins it like k6; `signal` (AbortSignal) stops it and rejects with AbortError.
 */
function runWrk({ watch, cpus, signal, ...input }) {
  return runTool(wrkGenerator, input, { watch, cpus, signal });
}

const ms = (us) => us / 1000;

/**
 * What wrk-cell.lua measured, in the matrix's sample format: the shape of router-matrix.js's k6
 * summary that lib/results-model/reduce.js reads (counters, the request_total trend on k6's
 * quantile grid, errors by status with status 0 for socket errors as k6 counts them, responses by
 * protocol). Pure.
 * measured: the Lua script's JSON; meta: the cell and the load, as router-matrix.js writes it.
 */
function cellSummary(measured, meta) {
  const seconds = measured.durationUs / 1e6;
  const socketErrors = Object.values(measured.errors).reduce((a, b) => a + b, 0);
  const requests = measured.requests + socketErrors;
  const count = counter(seconds);
  const metrics = {
    http_reqs: count(requests),
    iterations: count(requests),
    // wrk speaks HTTP/1.1 only: every response it read was one.
    [PROTOCOL_METRICS['HTTP/1.1']]: count(measured.requests),
    vus: vusGauge(meta.vus),
  };
  const latency = measured.latencyUs;
  if (measured.requests > 0) {
    const values = {
      count: measured.requests,
      avg: ms(latency.mean),
      min: ms(latency.min),
      max: ms(latency.max),
    };
    for (const q of QUANTILES) values[`p(${q})`] = ms(measured.latencyUs.percentiles[String(q)]);
    values.med = values['p(50)'];
    metrics.request_total = { type: 'trend', values };
    metrics.iteration_duration = { type: 'trend', values: { avg: values.avg } };
  }
  for (const [status, n] of Object.entries(measured.statuses)) {
    if (status !== '200' && n > 0) metrics[`errors_status_${status}`] = count(n);
  }
  if (socketErrors > 0) metrics.errors_status_0 = count(socketErrors);
  if (measured.wrongSize > 0) metrics.errors_wrong_size = count(measured.wrongSize);
  return { meta, state: { testRunDurationMs: measured.durationUs / 1000 }, metrics };
}

/**
 * wrk driving a close cell (wrk-cell.lua): `connections` connections, each request on a new one
 * that resumes the TLS session. Parsed like a k6 sample: { summary, cpu, counters, allowedCores }.
 */
const wrkCellGenerator = {
  name: 'wrk',
  describe: ({ cell }) => `wrk on cell ${cell.name}`,
  command({ wrk, url, host, cell, connections, threads, durationSeconds, summaryPath }) {
    const args = ['-t', String(threads), '-c', String(Math.max(connections, threads))];
    args.push('-d', `${durationSeconds}s`, '--timeout', '5s', '-s', CELL_SCRIPT);
    if (host) args.push('-H', `Host: ${host}`);
    args.push(url);
    const env = {
      ...process.env,
      WRK_CELL_OUT: summaryPath,
      WRK_PAGE_BYTES: String(cell.pageSize),
      WRK_QUANTILES: QUANTILES.join(','),
    };
    return { file: wrk, args, env };
  },
  parse(run, { cell, url, connections, durationSeconds, summaryPath, target }) {
    let measured;
    try {
      measured = JSON.parse(fs.readFileSync(summaryPath, 'utf8'));
    } catch (err) {
      throw new Error(`wrk wrote no readable figures for ${cell.name} at ${summaryPath}: ${err.message}`, {
        cause: err,
      });
    }
    const meta = foreignMeta({
      script: 'wrk-cell',
      generator: 'wrk',
      cell,
      url,
      target,
      executor: 'connections',
      load: connections,
      durationSeconds,
    });
    const summary = cellSummary(measured, meta);
    writeSummary(summaryPath, summary);
    return { ...run, summary };
  },
};

/** Runs wrk once for a close cell; `watch`, `cpus`, `counters` and `signal` as runTool takes them. */
function runWrkCell({ watch, cpus, counters, signal, ...input }) {
  return runTool(wrkCellGenerator, input, { watch, cpus, counters, signal });
}

module.exports = { wrkGenerator, runWrk, cellSummary, wrkCellGenerator, runWrkCell };
