'use strict';
// The router's own counters (handshakes, sessions, HTTP streams, connections, queue), read during a
// sample by its backend's reader: what the router did, which no client figure proves. Counts are
// over the sample; rates are medians, which straddling readings cannot drag.
const { spread } = require('../results-model/cost');
const { streamsBetween } = require('../results-model/streams');

const median = (values) => spread(values)?.median ?? null;

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
    handshakes: { full, resumed },
  };
}

/** Both readings from one HAProxy: a reload between them started a new one, counting from 0. */
const sameProcess = (first, last) => first.pid === last.pid;

/**
 * A sample's figures from its readings (pure): full handshakes, the reuse share and the handshakes
 * counted over the sample, else medians of HAProxy's rates (the reuse share only over readings
 * with TLS sessions: an idle second has no share, not a share of 0); medians of the other rates;
 * the largest queue and connection count seen; the HTTP streams by version counted from the first
 * reading to the last. A baseline reading (taken as the sample starts) counts from there, but its
 * rates are the second before: they stay out of the medians. Null when nothing was read.
 */
function summarizeReadings(readings) {
  const rated = readings.filter((r) => !r.baseline);
  if (!rated.length) return null;
  const of = (key) => rated.map((r) => r[key]);
  const round = (v, digits = 1) => (v === null ? null : Number(v.toFixed(digits)));
  const withTls = rated.filter((r) => r.tlsSessionsPerSec > 0);
  const max = (key) => spread(of(key))?.max ?? null;
  const counted = tlsOverSample(readings[0], readings.at(-1));
  return {
    readings: rated.length,
    handshakes: counted?.handshakes ?? null,
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
 * Takes a reading with `read(at)` (a backend's: lib/lab/haproxy/counters.js, the Gateway's) as it
 * starts (the baseline: a client's first handshake comes before the first interval) and every
 * intervalMs until stop(). A reading that fails (the router busy past the timeout) is skipped, and
 * counted: the figures say how many they rest on.
 */
function startRouterCounters(read, { intervalMs = 500 } = {}) {
  const readings = [];
  let failed = 0;
  let lastError = null;
  let inFlight = Promise.resolve();
  let busy = false;
  const take = (baseline = false) => {
    if (busy) return;
    busy = true;
    const at = performance.now();
    inFlight = read(at)
      .then((r) => readings.push(baseline ? { ...r, baseline } : r))
      .catch((err) => {
        failed++;
        lastError = err.message;
      })
      .finally(() => {
        busy = false;
      });
  };
  // A sampler never holds a command open: one left running after an error (Ctrl-C) would.
  const timer = setInterval(take, intervalMs).unref();
  take(true);
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

module.exports = { summarizeReadings, startRouterCounters };
