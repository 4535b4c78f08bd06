'use strict';
// Static-like pages of an exact size, the router benchmark's workload: no Redis, no allocation,
// every body a prefix of one shared 1 MiB buffer written with res.end. The Express route answers
// everything about pages, errors included; a fast path in front answers the router matrix's GETs.
const { Problem } = require('../problem');
const { methodNotAllowed } = require('./method-not-allowed');

// No Express send and no ETag, so the service adds as little as possible to what is measured.
const MAX_PAGE_BYTES = 1024 * 1024;
const UNITS = { '': 1, k: 1024, m: 1024 * 1024 };
const SIZE_PATTERN = /^(0|[1-9][0-9]{0,7})([km]?)$/i;

// Printable ASCII lines of 64 bytes, so a page is readable in curl and compresses like text.
const BODY = Buffer.alloc(MAX_PAGE_BYTES);
const LINE = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.\n');
for (let offset = 0; offset < MAX_PAGE_BYTES; offset += LINE.length) LINE.copy(BODY, offset);

// Parsed sizes, remembered per spelling ("4k", "4096"); bounded so odd spellings cannot grow it.
const parsed = new Map();

/** Bytes for a size such as "1024", "1k", "64K" or "1m", or NaN when it is not one. */
function pageBytes(text) {
  const known = parsed.get(text);
  if (known !== undefined) return known;
  const match = SIZE_PATTERN.exec(text);
  const bytes = match ? Number(match[1]) * UNITS[match[2].toLowerCase()] : NaN;
  if (!(bytes <= MAX_PAGE_BYTES)) return NaN;
  if (parsed.size < 1024) parsed.set(text, bytes);
  return bytes;
}

/** Like pageBytes, but throws a 400 problem that says what is wrong. */
function parsePageSize(text) {
  const bytes = pageBytes(text);
  if (Number.isNaN(bytes)) {
    const match = SIZE_PATTERN.exec(text);
    const requested = match ? Number(match[1]) * UNITS[match[2].toLowerCase()] : NaN;
    const shown = text.length > 32 ? `${text.slice(0, 32)}…` : text;
    throw new Problem(
      400,
      'invalid-page-size',
      match
        ? `page size ${JSON.stringify(shown)} is ${requested} bytes; the maximum is ${MAX_PAGE_BYTES} (1m)`
        : `page size must be a byte count with an optional k or m suffix (1024, 4k, 1m), got ${JSON.stringify(shown)}`,
    );
  }
  return bytes;
}

function writePage(res, bytes) {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', bytes);
  res.end(bytes === MAX_PAGE_BYTES ? BODY : BODY.subarray(0, bytes));
}

/** Registers /api/pages/:size on `app`. */
function registerPages(app) {
  app
    .route('/api/pages/:size')
    .get((req, res) => writePage(res, parsePageSize(req.params.size)))
    .all(methodNotAllowed(['GET']));
}

// In front of Express, the listener's fast path answers the well-formed GET and HEAD requests the
// router matrix sends, with the same headers, Server-Timing and metrics, at node:http cost: about
// 4x fewer CPU-seconds per page than through Express. With router, load generator and several
// instances sharing a workstation's cores, that CPU goes to the router under test.
const PREFIX = '/api/pages/';
const ROUTE = '/api/pages/:size';

/**
 * The fast path: answers GET or HEAD /api/pages/<size> with a valid size and nothing else in the
 * URL (no query, no trailing slash, exact case), and returns true; returns false for anything
 * else, which Express then handles (and explains, when it is an error).
 * @param {Function} recordResponse from installTiming: Server-Timing, metrics, Connection: close
 */
function pageFastPath(recordResponse) {
  return (req, res) => {
    const url = req.url;
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(PREFIX)) return false;
    const bytes = pageBytes(url.slice(PREFIX.length));
    if (Number.isNaN(bytes)) return false;
    recordResponse(res, 200, ROUTE);
    writePage(res, bytes);
    return true;
  };
}

module.exports = { registerPages, pageFastPath, parsePageSize, pageBytes, MAX_PAGE_BYTES };
