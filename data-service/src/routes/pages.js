'use strict';
// Static-like pages of an exact size, the router benchmark's workload: no Redis, no allocation.
// Every body is a prefix of one shared 1 MiB buffer, written with res.end (no Express send, no
// ETag), so the service adds as little as possible to what the benchmark measures.
const { Problem } = require('../problem');
const { methodNotAllowed } = require('./method-not-allowed');

const MAX_PAGE_BYTES = 1024 * 1024;
const UNITS = { '': 1, k: 1024, m: 1024 * 1024 };
const SIZE_PATTERN = /^(0|[1-9][0-9]{0,7})([km]?)$/i;

// Printable ASCII lines of 64 bytes, so a page is readable in curl and compresses like text.
const BODY = Buffer.alloc(MAX_PAGE_BYTES);
const LINE = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.\n');
for (let offset = 0; offset < MAX_PAGE_BYTES; offset += LINE.length) LINE.copy(BODY, offset);

// Parsed sizes, remembered per spelling ("4k", "4096"); bounded so odd spellings cannot grow it.
const parsed = new Map();

/** Bytes for a size such as "1024", "1k", "64K" or "1m"; throws a 400 problem otherwise. */
function parsePageSize(text) {
  const known = parsed.get(text);
  if (known !== undefined) return known;
  const match = SIZE_PATTERN.exec(text);
  const bytes = match ? Number(match[1]) * UNITS[match[2].toLowerCase()] : NaN;
  if (!(bytes <= MAX_PAGE_BYTES)) {
    const shown = text.length > 32 ? `${text.slice(0, 32)}…` : text;
    throw new Problem(
      400,
      'invalid-page-size',
      match
        ? `page size ${JSON.stringify(shown)} is ${bytes} bytes; the maximum is ${MAX_PAGE_BYTES} (1m)`
        : `page size must be a byte count with an optional k or m suffix (1024, 4k, 1m), got ${JSON.stringify(shown)}`,
    );
  }
  if (parsed.size < 1024) parsed.set(text, bytes);
  return bytes;
}

/** Registers /api/pages/:size on `app`. */
function registerPages(app) {
  app
    .route('/api/pages/:size')
    .get((req, res) => {
      const bytes = parsePageSize(req.params.size);
      res.statusCode = 200;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.setHeader('Content-Length', bytes);
      res.end(bytes === MAX_PAGE_BYTES ? BODY : BODY.subarray(0, bytes));
    })
    .all(methodNotAllowed(['GET']));
}

module.exports = { registerPages, parsePageSize, MAX_PAGE_BYTES };
