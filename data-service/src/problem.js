'use strict';
// RFC 9457 problem details. Every error the service answers goes through here, so clients and
// the router see one shape: application/problem+json with type, title, status and detail.
// Types are URNs: stable identifiers that do not pretend to be documentation URLs.

const TITLES = {
  'bad-request': 'Bad request',
  'invalid-json': 'Malformed JSON body',
  'not-an-object': 'Body is not a JSON object',
  'unsupported-media-type': 'Unsupported media type',
  'body-too-large': 'Request body too large',
  'invalid-id': 'Invalid record id',
  'invalid-page-size': 'Invalid page size',
  'record-not-found': 'Record not found',
  'not-found': 'Not found',
  'method-not-allowed': 'Method not allowed',
  'redis-unavailable': 'Redis unavailable',
  'redis-not-replicated': 'Write not replicated',
  'shutting-down': 'Service is shutting down',
  internal: 'Internal server error',
};

class Problem extends Error {
  /**
   * @param {number} status HTTP status
   * @param {string} kind a key of TITLES: becomes the type URN and picks the title
   * @param {string} detail what exactly was wrong, for a human
   * @param {object} [extra] { headers, cause }
   */
  constructor(status, kind, detail, { headers, cause } = {}) {
    super(detail, cause ? { cause } : undefined);
    this.name = 'Problem';
    this.status = status;
    this.kind = kind;
    this.headers = headers;
  }

  toJSON() {
    return {
      type: `urn:router-lab:problem:${this.kind}`,
      title: TITLES[this.kind] || TITLES.internal,
      status: this.status,
      detail: this.message,
    };
  }
}

/** Writes `problem` as application/problem+json (no Express helpers: also used before routing). */
function sendProblem(res, problem) {
  const body = JSON.stringify(problem);
  res.statusCode = problem.status;
  if (problem.headers)
    for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/problem+json');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

// body-parser and the router report client errors as http-errors with a `type`; map each one to
// a problem that says what was wrong. Anything else with a 4xx status keeps its status.
function fromClientError(err) {
  switch (err.type) {
    case 'entity.parse.failed':
      return new Problem(400, 'invalid-json', `the body is not valid JSON: ${err.message}`);
    case 'entity.empty':
      return new Problem(400, 'invalid-json', err.message);
    case 'entity.too.large':
      return new Problem(
        413,
        'body-too-large',
        `the body is ${err.length} bytes; the limit is ${err.limit} bytes (MAX_BODY_BYTES)`,
      );
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new Problem(415, 'unsupported-media-type', err.message);
    case 'request.aborted':
      return new Problem(400, 'bad-request', 'the client aborted the request body');
    case 'request.size.invalid':
      return new Problem(400, 'bad-request', 'the body length does not match Content-Length');
    default:
      // The router rejects a path whose percent-encoding does not decode.
      if (err instanceof URIError)
        return new Problem(400, 'bad-request', `the path is not valid: ${err.message}`);
      return new Problem(err.status, 'bad-request', err.expose ? err.message : 'bad request');
  }
}

/** Express error handler (4 arguments): turns any error into a problem response. */
function problemHandler(logger) {
  return function handleProblem(err, req, res, _next) {
    let problem;
    if (err instanceof Problem) problem = err;
    else {
      const status = err.status || err.statusCode;
      if (Number.isInteger(status) && status >= 400 && status < 500) problem = fromClientError(err);
      else {
        logger.error({ err, method: req.method, url: req.originalUrl }, 'unhandled error');
        problem = new Problem(500, 'internal', 'the service failed to handle the request; see its log');
      }
    }
    // Outages are logged once by the Redis client, not once per failed request.
    if (problem.status === 503)
      logger.debug({ detail: problem.message, url: req.originalUrl }, 'request failed');
    if (res.headersSent) {
      res.destroy(err);
      return;
    }
    sendProblem(res, problem);
  };
}

module.exports = { Problem, sendProblem, problemHandler, TITLES };
