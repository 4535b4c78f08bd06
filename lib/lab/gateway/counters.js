'use strict';
// Envoy's own counters as the matrix reads them while a sample runs (lib/load/router-counters.js),
// from its admin's /stats, in the shape HAProxy's reading has (../haproxy/counters.js): the TLS
// sessions on its listeners, its HTTP streams by version, its connections.
const { request } = require('../common/client');

// The Gateway's listeners (not the admin's), their HTTP connection managers, and the clusters
// of the routes' Services (istiod names them outbound|<port>||<host>).
const STATS_FILTER = '^(listener\\.[0-9]|http\\.outbound|cluster\\.outbound)';
const LISTENER = /^listener\.[0-9][^.]*\.[0-9][^.]*\.[0-9][^.]*\.[0-9][^.]*_\d+\.(.+)$/;
const CONNECTION_MANAGER = /^http\.outbound_[^;]*;\.(.+)$/;
const CLUSTER = /^cluster\.(outbound\|[^;]*);\.(.+)$/;

/**
 * One reading from /stats' counters (`stats`: [{ name, value }], pure): the listeners' TLS
 * sessions (ssl.handshake counts every one, ssl.session_reused the resumed), the requests its
 * listeners received by version, the requests each cluster sent (by the version of the
 * connections it opened: the service speaks HTTP/1.1 unless its cluster opened h2 ones).
 */
function envoyReading(stats, { pid = null, at = performance.now() } = {}) {
  const listener = {};
  const manager = {};
  const clusters = {};
  for (const { name, value } of stats) {
    let m = LISTENER.exec(name);
    if (m) listener[m[1]] = (listener[m[1]] ?? 0) + value;
    else if ((m = CONNECTION_MANAGER.exec(name))) manager[m[1]] = (manager[m[1]] ?? 0) + value;
    else if ((m = CLUSTER.exec(name))) (clusters[m[1]] ??= {})[m[2]] = value;
  }
  const handshakes = listener['ssl.handshake'] ?? 0;
  const resumed = listener['ssl.session_reused'] ?? 0;
  const sent = { h1: 0, h2: 0 };
  for (const c of Object.values(clusters)) {
    sent[c.upstream_cx_http2_total > 0 ? 'h2' : 'h1'] += c.upstream_rq_total ?? 0;
  }
  return {
    fullHandshakesPerSec: null,
    backendFullHandshakesPerSec: null,
    tlsSessionsPerSec: null,
    reusePct: null,
    sessionsPerSec: null,
    currentConnections: listener.downstream_cx_active ?? null,
    queued: null,
    streamTotals: {
      received: { h1: manager.downstream_rq_http1_total ?? 0, h2: manager.downstream_rq_http2_total ?? 0 },
      sent,
    },
    tlsTotals: { full: handshakes - resumed, resumed },
    pid,
    at,
  };
}

/** A reader of the Envoy whose admin is `adminUrl`: (at) → a reading, for startRouterCounters. */
const envoyCounters = (adminUrl, pid) => async (at) => {
  const url = `${adminUrl}/stats?format=json&filter=${encodeURIComponent(STATS_FILTER)}`;
  const res = await request(url, { timeoutMs: 2000 });
  if (res.status !== 200) throw new Error(`Envoy's admin answered ${res.status} for /stats`);
  return envoyReading(res.json().stats, { pid, at });
};

module.exports = { envoyReading, envoyCounters };
