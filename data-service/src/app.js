'use strict';
// The Express application, without listeners: tests drive it in-process with supertest, and
// server.js mounts it on the HTTP and HTTPS listeners. Routes are registered flat on the app
// (no sub-routers) in order of traffic, so the router benchmark's page route matches first.
const express = require('express');
const { installTiming, ensureStart } = require('./timing');
const { Problem, problemHandler } = require('./problem');
const { createRecordStore } = require('./records-store');
const { registerPages, pageFastPath } = require('./routes/pages');
const { registerRecords } = require('./routes/records');
const { whoamiHandler } = require('./routes/whoami');
const { healthzHandler, readyzHandler, metricsHandler } = require('./routes/ops');
const { methodNotAllowed } = require('./routes/method-not-allowed');

/**
 * @param {object} deps
 * @param {object} deps.config   from loadConfig()
 * @param {object} deps.redis    an ioredis client or cluster
 * @param {object} deps.metrics  from createMetrics()
 * @param {object} deps.logger   a pino logger
 * @param {object} [deps.lifecycle] { shuttingDown, closing }: set by the shutdown sequence
 * @returns {{ app: Function, listener: Function }} the Express app, and the request listener for
 *   http.createServer: the page fast path in front of the app
 */
function createApp({ config, redis, metrics, logger, lifecycle = { shuttingDown: false, closing: false } }) {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  const recordResponse = installTiming(app, {
    metrics,
    logger,
    // Once the listeners are closing, every response also closes its connection, so in-flight
    // keep-alive connections end as soon as their request is answered.
    beforeHeaders: (res) => {
      if (lifecycle.closing) res.setHeader('Connection', 'close');
    },
  });
  const store = createRecordStore({
    redis,
    metrics,
    waitReplicas: config.redisWaitReplicas,
    waitTimeoutMs: config.redisWaitTimeoutMs,
  });
  const get = (path, handler) =>
    app
      .route(path)
      .get(handler)
      .all(methodNotAllowed(['GET']));

  registerPages(app);
  registerRecords(app, { store, maxBodyBytes: config.maxBodyBytes });
  get('/api/whoami', whoamiHandler({ instanceName: config.instanceName }));
  get('/healthz', healthzHandler());
  get('/readyz', readyzHandler({ store, redis, lifecycle }));
  get('/metrics', metricsHandler({ registry: metrics.registry }));

  app.use((req, _res, next) => {
    next(
      new Problem(404, 'not-found', `there is no ${req.method} ${req.path} here; see docs/data-service.md`),
    );
  });
  app.use(problemHandler(logger));

  // What the listeners run: the page fast path first, everything else through Express.
  const servePage = pageFastPath(recordResponse);
  const listener = (req, res) => {
    ensureStart(res);
    if (!servePage(req, res)) app(req, res);
  };
  return { app, listener };
}

module.exports = { createApp };
