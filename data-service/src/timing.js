'use strict';
// Server-Timing on every response, the request duration histogram and debug request logs, all
// from one hook: the response's writeHead, which Node calls for every response (errors, 404s and
// responses written without Express helpers too) while headers are still mutable.
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

// The hook lives on the app's response prototype, so a request costs two clock reads and no closure.
/**
 * Installs the start stamp on `app.handle` and the Server-Timing hook on `app.response`, and
 * returns `recordResponse(res, statusCode, route)`, the same bookkeeping for responses written
 * outside Express (the page fast path), to be called just before their headers are written.
 * @param {object} app Express application
 * @param {object} deps { metrics, logger, beforeHeaders(res) optional: e.g. Connection: close }
 */
function installTiming(app, { metrics, logger, beforeHeaders }) {
  const logRequests = logger.isLevelEnabled('debug');

  function recordResponse(res, statusCode, route) {
    const appMs = now() - res[START];
    const redisMs = res[REDIS_MS];
    res.setHeader(
      'Server-Timing',
      redisMs === undefined
        ? `app;dur=${appMs.toFixed(3)}`
        : `app;dur=${appMs.toFixed(3)}, redis;dur=${redisMs.toFixed(3)}`,
    );
    if (beforeHeaders !== undefined) beforeHeaders(res);
    const req = res.req;
    metrics.observeRequest(req.method, route, statusCode, appMs / 1000);
    if (logRequests) {
      logger.debug({ method: req.method, url: req.url, route, status: statusCode, ms: appMs }, 'request');
    }
  }

  app.response.writeHead = function writeHeadWithTiming(statusCode) {
    if (this[START] !== undefined && !this.headersSent) {
      const req = this.req;
      recordResponse(this, statusCode, req.route === undefined ? 'unmatched' : req.baseUrl + req.route.path);
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

  return recordResponse;
}

/** Stamps the start on a response that TimedServerResponse did not create. */
function ensureStart(res) {
  if (res[START] === undefined) res[START] = now();
}

module.exports = { installTiming, addRedisTime, ensureStart, now, TimedServerResponse };
