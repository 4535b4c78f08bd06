'use strict';
// HAProxy's own counters as the matrix reads them while a sample runs (lib/load/router-counters.js):
// one reading of `show info` and `show stat` on the runtime API, for either HAProxy router.
const { showInfo, showStat } = require('./runtime-api');

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

/** A reader of the HAProxy on `socketPath`: (at) → a reading, for startRouterCounters. */
const haproxyCounters = (socketPath) => async (at) => {
  const [info, stat] = await Promise.all([showInfo(socketPath), showStat(socketPath)]);
  return reading(info, stat, at);
};

module.exports = { reading, haproxyCounters };
