'use strict';
// A client of Prometheus's HTTP API (or the Thanos querier in front of it on OpenShift): instant
// queries with a bearer token and a CA. Errors name the URL and what went wrong in a user's words:
// unreachable, the token refused, a query refused.
const fs = require('node:fs');
const { httpRequest } = require('../core/http-request');

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
  const ca = caFile ? fs.readFileSync(caFile) : undefined;
  const prefix = base.pathname.replace(/\/$/, '');
  async function get(pathAndQuery) {
    const headers = { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) };
    let res;
    try {
      const tls = { ca, rejectUnauthorized: !insecure };
      res = await httpRequest(new URL(`${prefix}${pathAndQuery}`, base), { headers, timeoutMs, ...tls });
    } catch (err) {
      const what = err.midAnswer ? 'closed the connection mid-answer' : `is unreachable: ${err.message}`;
      throw new PrometheusError(`Prometheus at ${url} ${what}`);
    }
    if (res.status !== 200) throw new PrometheusError(explain(url, res.status, res.text()), res.status);
    try {
      return res.json().data;
    } catch {
      throw new PrometheusError(`Prometheus at ${url} answered something other than JSON`, res.status);
    }
  }
  return {
    url,
    query: (promql, atSeconds) =>
      get(`/api/v1/query?${new URLSearchParams({ query: promql, time: atSeconds.toFixed(3) })}`),
  };
}

module.exports = { prometheusClient, PrometheusError };
