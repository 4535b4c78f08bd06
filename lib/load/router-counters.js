'use strict';
// The router's own counters (handshakes, resumed and new sessions, connections, queue), read over
// its runtime API while a sample runs: what the router did, which no client figure proves. Each
// figure is the median of its readings, so the readings that straddle start and end cannot drag it.
const { showInfo, showStat } = require('../lab/haproxy/runtime-api');
const { spread } = require('../results-model/cost');

const median = (values) => spread(values)?.median ?? null;

/** One reading from `show info` and `show stat`: the counters the matrix keeps. */
function reading(info, stat) {
  const backends = stat.filter((row) => row.svname === 'BACKEND');
  return {
    fullHandshakesPerSec: info.SslFrontendKeyRate ?? null,
    backendFullHandshakesPerSec: info.SslBackendKeyRate ?? null,
    tlsSessionsPerSec: info.SslRate ?? null,
    reusePct: info.SslFrontendSessionReuse_pct ?? null,
    sessionsPerSec: info.SessRate ?? null,
    currentConnections: info.CurrConns ?? null,
    queued: backends.reduce((sum, row) => sum + (typeof row.qcur === 'number' ? row.qcur : 0), 0),
  };
}

/**
 * A sample's figures from its readings (pure): medians of the rates; the reuse share only over
 * readings with TLS sessions (an idle second has no share, not a share of 0); the largest queue
 * and connection count seen. Null when nothing was read.
 */
function summarizeReadings(readings) {
  if (!readings.length) return null;
  const of = (key) => readings.map((r) => r[key]);
  const round = (v, digits = 1) => (v === null ? null : Number(v.toFixed(digits)));
  const withTls = readings.filter((r) => r.tlsSessionsPerSec > 0);
  const max = (key) => spread(of(key))?.max ?? null;
  return {
    readings: readings.length,
    fullHandshakesPerSec: round(median(of('fullHandshakesPerSec'))),
    backendFullHandshakesPerSec: round(median(of('backendFullHandshakesPerSec'))),
    tlsSessionsPerSec: round(median(of('tlsSessionsPerSec'))),
    reusePct: withTls.length ? round(median(withTls.map((r) => r.reusePct))) : null,
    sessionsPerSec: round(median(of('sessionsPerSec'))),
    currentConnections: { median: round(median(of('currentConnections'))), max: max('currentConnections') },
    queued: { median: round(median(of('queued'))), max: max('queued') },
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
    inFlight = Promise.all([showInfo(socketPath), showStat(socketPath)])
      .then(([info, stat]) => readings.push(reading(info, stat)))
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
