'use strict';
// A client of Prometheus's HTTP API (or the Thanos querier in front of it on OpenShift): instant
// queries with a bearer token and a CA. Errors name the URL and what went wrong in a user's words:
// unreachable, the token refused, a query refused.
const http = require('node:http');
const https = require('node:https');
const fs = require('node:fs');

/** A failure to read Prometheus, with the HTTP status where there was one. */
class PrometheusError extends Error {
  constructor(message, status = null) {
    super(message);
    this.name = 'PrometheusError';
    this.status = status;
  }
}

function explain(base, status, text) {
  if (status === 401)
    return `Prometheus at ${base} refused the token (401 Unauthorized): pass --token, or 'oc whoami -t'`;
  if (status === 403)
    return `Prometheus at ${base} refused access (403 Forbidden): the user needs the cluster-monitoring-view role`;
  let said = text.slice(0, 300);
  try {
    said = JSON.parse(text).error || said;
  } catch {
    // not JSON: the text as it came
  }
  return `Prometheus at ${base} answered ${status}: ${said}`;
}

/**
 * A client for `url`: query(promql, atSeconds) resolves the result ({ resultType, result }).
 * `token`: a bearer token; `caFile`: the CA that signed its certificate; `insecure` skips
 * verification.
 */
function prometheusClient({ url, token = null, caFile = null, insecure = false, timeoutMs = 15000 }) {
  const base = new URL(url);
  const lib = base.protocol === 'https:' ? https : http;
  const ca = caFile ? fs.readFileSync(caFile) : undefined;
  const prefix = base.pathname.replace(/\/$/, '');
  function get(pathAndQuery) {
    const headers = { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) };
    const options = { method: 'GET', headers, timeout: timeoutMs, ca, rejectUnauthorized: !insecure };
    return new Promise((resolve, reject) => {
      const req = lib.request(new URL(`${prefix}${pathAndQuery}`, base), options, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        // A connection cut mid-answer ends the response without 'end'.
        res.on('close', () => {
          if (!res.complete)
            reject(new PrometheusError(`Prometheus at ${url} closed the connection mid-answer`));
        });
        res.on('end', () => {
          if (res.statusCode !== 200)
            return reject(new PrometheusError(explain(url, res.statusCode, text), res.statusCode));
          try {
            resolve(JSON.parse(text).data);
          } catch {
            reject(
              new PrometheusError(`Prometheus at ${url} answered something other than JSON`, res.statusCode),
            );
          }
        });
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (err) =>
        reject(new PrometheusError(`Prometheus at ${url} is unreachable: ${err.message}`)),
      );
      req.end();
    });
  }
  return {
    url,
    query: (promql, atSeconds) =>
      get(`/api/v1/query?${new URLSearchParams({ query: promql, time: atSeconds.toFixed(3) })}`),
  };
}

module.exports = { prometheusClient, PrometheusError };
