'use strict';
// Liveness, readiness and metrics: what the router and the platform ask.
const { sendProblem, Problem } = require('../problem');

function sendText(res, status, contentType, text) {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** 200 while the process can answer at all: a restart would not help otherwise. */
function healthzHandler() {
  return (_req, res) => sendText(res, 200, 'application/json; charset=utf-8', '{"status":"ok"}');
}

/**
 * 200 when Redis answers PING and the service is not shutting down; 503 with the reason
 * otherwise, so the router takes the instance out of rotation.
 */
function readyzHandler({ store, redis, lifecycle }) {
  const notReady = (res, kind, detail) =>
    sendProblem(res, new Problem(503, kind, detail, { headers: { 'Cache-Control': 'no-store' } }));
  return async (_req, res) => {
    if (lifecycle.shuttingDown) {
      notReady(res, 'shutting-down', 'the service received SIGTERM and is draining its connections');
      return;
    }
    if (redis.status !== 'ready') {
      notReady(res, 'redis-unavailable', `the Redis connection is ${redis.status}`);
      return;
    }
    try {
      await store.ping();
    } catch (err) {
      notReady(res, 'redis-unavailable', err.message);
      return;
    }
    sendText(res, 200, 'application/json; charset=utf-8', '{"status":"ready","redis":"ok"}');
  };
}

function metricsHandler({ registry }) {
  return async (_req, res) => {
    sendText(res, 200, registry.contentType, await registry.metrics());
  };
}

module.exports = { healthzHandler, readyzHandler, metricsHandler };
