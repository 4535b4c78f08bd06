'use strict';
// A small client of the Kubernetes API for the lab: JSON over HTTPS with a bearer token, the
// server's CA and nothing else. The lab needs a handful of calls (CRDs, namespaces, RBAC,
// EndpointSlices, Route status), not a client library.
const { httpRequest } = require('../../core/http-request');

/** A refusal by the API server, carrying its own message (`status.message`) and HTTP code. */
class ApiError extends Error {
  constructor(method, urlPath, status, text, json) {
    const message = (json && json.message) || text.slice(0, 500) || `HTTP ${status}`;
    super(`${method} ${urlPath}: ${status} ${message}`);
    this.name = 'ApiError';
    this.status = status;
    this.apiMessage = message;
  }
}

/**
 * A client for `server` ('https://127.0.0.1:6443') trusting `ca` (PEM; the system's store when
 * absent) with `token`, or a client certificate (`cert`, `key`); `insecure` skips verifying the
 * server, as a kubeconfig's insecure-skip-tls-verify does. `send` resolves every answer as
 * { status, json, text, headers }; the other methods resolve the parsed body, and a status outside
 * 2xx rejects with an ApiError.
 */
function kubeClient({ server, ca, token, cert, key, insecure = false }) {
  async function send(method, urlPath, { body, contentType = 'application/json', timeoutMs = 30000 } = {}) {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const headers = { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) };
    if (payload !== undefined) headers['Content-Type'] = contentType;
    const tls = { ca, cert, key, rejectUnauthorized: !insecure };
    const res = await httpRequest(new URL(urlPath, server), {
      method,
      headers,
      body: payload,
      timeoutMs,
      ...tls,
    });
    const text = res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text, headers: res.headers };
  }
  async function call(method, urlPath, options) {
    const { status, json, text } = await send(method, urlPath, options);
    if (status >= 200 && status < 300) return json;
    throw new ApiError(method, urlPath, status, text, json);
  }
  return {
    get: (p) => call('GET', p),
    post: (p, body) => call('POST', p, { body }),
    put: (p, body) => call('PUT', p, { body }),
    delete: (p) => call('DELETE', p),
    call,
    send,
  };
}

/** Creates an object; one that exists already is left as it is (lab:up may run on a kept etcd). */
async function ensure(client, collection, body) {
  try {
    return await client.post(collection, body);
  } catch (err) {
    if (err.status === 409) return client.get(`${collection}/${body.metadata.name}`);
    throw err;
  }
}

module.exports = { kubeClient, ensure, ApiError };
