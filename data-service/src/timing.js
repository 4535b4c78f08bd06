'use strict';
// Server-Timing on every response, the request duration histogram and debug request logs, all
// from one hook: the response's writeHead. Node calls writeHead for every response (res.end and
// res.write call it implicitly), so errors, 404s and responses written without Express helpers
// are covered, and headers are still mutable at that moment. The hook lives on the app's response
// prototype, so a request costs two clock reads and no closure.
const http = require('node:http');
const { performance } = require('node:perf_hooks');

const START = Symbol('requestStart');
const REDIS_MS = Symbol('redisMilliseconds');
const baseWriteHead = http.ServerResponse.prototype.writeHead;

// performance.now(): monotonic, sub-microsecond, and a plain double (no BigInt allocation).
const now = () => performance.now();

/**
 * The listeners' response class (http.createServer's ServerResponse option). It stamps the start
 * when Node creates the response, right after parsing the request head, and declares the timing
 * fields up front: adding them later to every response object costs a hidden-class transition
 * and a property-store allocation per request, measurable in the benchmark.
 */
class TimedServerResponse extends http.ServerResponse {
  constructor(req, options) {
    super(req, options);
    this[START] = now();
    this[REDIS_MS] = undefined;
  }
}

/** Adds `ms` milliseconds of Redis time to the response's Server-Timing redis entry. */
function addRedisTime(res, ms) {
  const sofar = res[REDIS_MS];
  res[REDIS_MS] = sofar === undefined ? ms : sofar + ms;
}

/**
 * Installs the start stamp on `app.handle` and the Server-Timing hook on `app.response`.
 * @param {object} app Express application
 * @param {object} deps { metrics, logger, beforeHeaders(res) optional: e.g. Connection: close }
 */
function installTiming(app, { metrics, logger, beforeHeaders }) {
  const logRequests = logger.isLevelEnabled('debug');

  app.response.writeHead = function writeHeadWithTiming(statusCode) {
    const start = this[START];
    if (start !== undefined && !this.headersSent) {
      const appMs = now() - start;
      const redisMs = this[REDIS_MS];
      this.setHeader(
        'Server-Timing',
        redisMs === undefined
          ? `app;dur=${appMs.toFixed(3)}`
          : `app;dur=${appMs.toFixed(3)}, redis;dur=${redisMs.toFixed(3)}`,
      );
      if (beforeHeaders !== undefined) beforeHeaders(this);
      const req = this.req;
      const route = req.route === undefined ? 'unmatched' : req.baseUrl + req.route.path;
      const seconds = appMs / 1000;
      metrics.observeRequest(req.method, route, statusCode, seconds);
      if (logRequests) {
        logger.debug(
          { method: req.method, url: req.originalUrl, route, status: statusCode, ms: appMs },
          'request',
        );
      }
    }
    return baseWriteHead.apply(this, arguments);
  };

  // Responses not created by TimedServerResponse (supertest's own server in the tests) get their
  // start when Express receives the request: wrapping app.handle instead of adding a first
  // middleware saves a router layer on every request.
  const handle = app.handle;
  app.handle = function handleWithStart(req, res, callback) {
    if (res[START] === undefined) res[START] = now();
    return handle.call(this, req, res, callback);
  };
}

module.exports = { installTiming, addRedisTime, now, TimedServerResponse };
