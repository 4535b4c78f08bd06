'use strict';
// The router's own counters (handshakes, resumed and new sessions, HTTP streams, connections,
// queue), read over its runtime API while a sample runs: what the router did, which no client figure
// proves. Counts are taken over the sample; rates are medians, which straddling readings cannot drag.
const { showInfo, showStat } = require('../lab/haproxy/runtime-api');
const { spread } = require('../results-model/cost');
const { streamsBetween } = require('../results-model/streams');

const median = (values) => spread(values)?.median ?? null;

// The frontends that serve Routes in both templates (not `stats`), and their backends (be_*).
const ROUTE_FRONTENDS = new Set(['public', 'fe_sni', 'fe_no_sni']);
const routeFrontends = (stat) =>
  stat.filter((row) => row.svname === 'FRONTEND' && ROUTE_FRONTENDS.has(row.pxname));

// show stat's columns for HTTP streams by version, and for TLS sessions (new and resumed).
const STREAM_COLUMNS = ['h1_total_streams', 'h2_headers_rcvd', 'h2_backend_total_streams'];
const TLS_COLUMNS = ['ssl_sess', 'ssl_reused_sess'];

/** Whether this build's show stat has `columns` (every parsed row carries the header's keys). */
const hasColumns = (stat, columns) => stat.length > 0 && columns.every((column) => column in stat[0]);
/** `column` summed over `rows`; a TCP-mode proxy (be_sni) has the column but no figure: 0. */
const columnSum = (rows, column) => rows.reduce((total, row) => total + (Number(row[column]) || 0), 0);

/**
 * Cumulative HTTP streams by version from HAProxy's mux counters: requests the Route frontends
 * received (h1_total_streams, h2_headers_rcvd) and streams the Route backends opened to services
 * (h1_total_streams, h2_backend_total_streams). Null where the build has no such columns.
 */
function streamTotals(stat) {
  const frontends = routeFrontends(stat);
  if (!frontends.length || !hasColumns(stat, STREAM_COLUMNS)) return null;
  const backends = stat.filter((row) => row.svname === 'BACKEND' && row.pxname.startsWith('be_'));
  return {
    received: { h1: columnSum(frontends, 'h1_total_streams'), h2: columnSum(frontends, 'h2_headers_rcvd') },
    sent: {
      h1: columnSum(backends, 'h1_total_streams'),
      h2: columnSum(backends, 'h2_backend_total_streams'),
    },
  };
}

/**
 * Cumulative TLS sessions on the Route frontends: new ones, each a full handshake (show stat's
 * ssl_sess), and resumed ones (ssl_reused_sess); null where the build has no such columns.
 */
function tlsTotals(stat) {
  const frontends = routeFrontends(stat);
  if (!frontends.length || !hasColumns(stat, TLS_COLUMNS)) return null;
  return { full: columnSum(frontends, 'ssl_sess'), resumed: columnSum(frontends, 'ssl_reused_sess') };
}

/**
 * One reading from `show info` and `show stat` asked at `at` (ms): the counters the matrix keeps,
 * with the pid of the HAProxy that answered (a reload starts a new one, counting from 0).
 */
function reading(info, stat, at = performance.now()) {
  const backends = stat.filter((row) => row.svname === 'BACKEND');
  return {
    fullHandshakesPerSec: info.SslFrontendKeyRate ?? null,
    backendFullHandshakesPerSec: info.SslBackendKeyRate ?? null,
    tlsSessionsPerSec: info.SslRate ?? null,
    reusePct: info.SslFrontendSessionReuse_pct ?? null,
    sessionsPerSec: info.SessRate ?? null,
    currentConnections: info.CurrConns ?? null,
    queued: backends.reduce((sum, row) => sum + (typeof row.qcur === 'number' ? row.qcur : 0), 0),
    streamTotals: streamTotals(stat),
    tlsTotals: tlsTotals(stat),
    pid: info.Pid ?? null,
    at,
  };
}

/**
 * Full handshakes per second and the resumed share (null without a session) from the cumulative TLS
 * counters between the first reading and the last; null where they lack them or a reload came
 * between. HAProxy's own rates (SslFrontendKeyRate, the reuse share) are over a sliding second,
 * so a reading within a second or two of the start still counts the cell before it.
 */
function tlsOverSample(first, last) {
  if (!sameProcess(first, last) || !first.tlsTotals || !last.tlsTotals || last.at <= first.at) return null;
  const full = last.tlsTotals.full - first.tlsTotals.full;
  const resumed = last.tlsTotals.resumed - first.tlsTotals.resumed;
  if (full < 0 || resumed < 0) return null;
  // No session at all (http, passthrough): no share, and no full handshake, whatever the rates say.
  const perSec = (full * 1000) / (last.at - first.at);
  return {
    fullHandshakesPerSec: perSec,
    reusePct: full + resumed ? (100 * resumed) / (full + resumed) : null,
  };
}

/** Both readings from one HAProxy: a reload between them started a new one, counting from 0. */
const sameProcess = (first, last) => first.pid === last.pid;

/**
 * A sample's figures from its readings (pure): full handshakes and the reuse share from the TLS
 * sessions counted over the sample, else medians of HAProxy's rates (the reuse share only over
 * readings with TLS sessions: an idle second has no share, not a share of 0); medians of the
 * other rates; the largest queue
 * and connection count seen; the HTTP streams by version counted from the first reading to the
 * last. Null when nothing was read.
 */
function summarizeReadings(readings) {
  if (!readings.length) return null;
  const of = (key) => readings.map((r) => r[key]);
  const round = (v, digits = 1) => (v === null ? null : Number(v.toFixed(digits)));
  const withTls = readings.filter((r) => r.tlsSessionsPerSec > 0);
  const max = (key) => spread(of(key))?.max ?? null;
  const counted = tlsOverSample(readings[0], readings.at(-1));
  return {
    readings: readings.length,
    fullHandshakesPerSec: round(counted?.fullHandshakesPerSec ?? median(of('fullHandshakesPerSec'))),
    backendFullHandshakesPerSec: round(median(of('backendFullHandshakesPerSec'))),
    tlsSessionsPerSec: round(median(of('tlsSessionsPerSec'))),
    reusePct: counted
      ? counted.reusePct === null
        ? null
        : round(counted.reusePct)
      : withTls.length
        ? round(median(withTls.map((r) => r.reusePct)))
        : null,
    sessionsPerSec: round(median(of('sessionsPerSec'))),
    currentConnections: { median: round(median(of('currentConnections'))), max: max('currentConnections') },
    queued: { median: round(median(of('queued'))), max: max('queued') },
    streams: sameProcess(readings[0], readings.at(-1))
      ? streamsBetween(readings[0].streamTotals, readings.at(-1).streamTotals)
      : null,
  };
}

/**
 * Reads the router's counters on `socketPath` every intervalMs until stop(). A reading that fails
 * (the router busy past the timeout) is skipped, and counted: the figures say how many they rest on.
 */
function startRouterCounters(socketPath, { intervalMs = 500 } = {}) {
  const readings = [];
  let failed = 0;
  let lastError = null;
  let inFlight = Promise.resolve();
  let busy = false;
  const take = () => {
    if (busy) return;
    busy = true;
    const at = performance.now();
    inFlight = Promise.all([showInfo(socketPath), showStat(socketPath)])
      .then(([info, stat]) => readings.push(reading(info, stat, at)))
      .catch((err) => {
        failed++;
        lastError = err.message;
      })
      .finally(() => {
        busy = false;
      });
  };
  const timer = setInterval(take, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
    result() {
      const summary = summarizeReadings(readings);
      return summary
        ? { ...summary, failedReadings: failed }
        : { readings: 0, failedReadings: failed, error: lastError };
    },
  };
}

module.exports = { reading, summarizeReadings, startRouterCounters };
