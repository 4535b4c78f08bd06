'use strict';
// The matrix's cell axes, declared once, in the order of a cell's name: the plan, --cells, names,
// k6's variables and tags, the schema's name pattern (a test compares), the report's Red Hat groups
// and compare's conditions all come from this list. Plain CommonJS, no Node built-ins: k6 loads it.
const { read } = require('./grammar.js');

const TERMINATIONS = ['http', 'edge', 'passthrough', 'reencrypt'];
/** Who ends a termination's TLS, and so does its handshakes: the data service on passthrough, the router otherwise. */
const tlsEndsAt = (termination) => (termination === 'passthrough' ? 'service' : 'router');
const CONNECTIONS = ['keepalive', 'close'];
/**
 * How a close cell's TLS connections begin: every one with a full handshake (signature and key
 * exchange), or resuming the session of the one before (a ticket: no signature, no key exchange).
 * Only close cells through a TLS route have this dimension: keep-alive does one handshake per
 * connection, and http has no TLS.
 */
const TLS_SESSIONS = ['full', 'resumed'];
/**
 * The HTTP version a cell's client forces: h1 (HTTP/1.1) or h2, which a router offers over ALPN
 * with HTTP/2 enabled (default-enable-http2): only cells through a TLS route have it.
 */
const PROTOCOLS = ['h1', 'h2'];
const DEFAULT_SIZES = ['1k', '4k'];
const MAX_PAGE_BYTES = 1024 * 1024; // the data service serves up to 1 MiB

/** '1k' → 1024, '4096' → 4096, '1m' → 1048576; throws on anything else. */
function parseSize(token) {
  const bytes = read('size', token);
  if (bytes === undefined) throw new Error(`page size must look like 1024, 1k, 4k or 64k, not '${token}'`);
  if (bytes < 1 || bytes > MAX_PAGE_BYTES) {
    throw new Error(`page size must be between 1 byte and 1 MiB, not '${token}'`);
  }
  return bytes;
}

/** 1024 → '1k', 1048576 → '1m', 1000 → '1000': the form used in cell names and URLs. */
function sizeLabel(bytes) {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)}m`;
  if (bytes % 1024 === 0) return `${bytes / 1024}k`;
  return String(bytes);
}

/**
 * Each axis:
 * - key: the cell's property (plan, results.json, k6's summary meta); tag and variable: its k6
 *   tag and the router-matrix script's environment variable.
 * - part: its name in --cells' shape and messages.
 * - values: the closed vocabulary, or null for an open axis, which then has read (name token →
 *   value, throws), token (value → name token) and pattern (the schema's regex of a token).
 * - default: the value where a k6 variable or an older record leaves it unset.
 * - choices: what a run plans without an option; option: the matrix option (opts key) that
 *   chooses them instead (its values are name tokens).
 * - appliesTo(cell): whether a cell (its earlier axes) has this axis; where not, its value is
 *   null and its name has no part for it. inName: 'always' where it applies, or 'unlessDefault'
 *   (a part only for the other values, so that existing names stay as they are).
 * - missing(cell), notApplicable: the name parser's messages for a missing or an extra part.
 * - condition: how compare names it when two cells differ in it; words: a value in the report's
 *   group titles; reference(table): the value Red Hat's table was measured at, or null (any).
 */
const AXES = [
  {
    key: 'termination',
    part: 'termination',
    values: TERMINATIONS,
    default: 'http',
    variable: 'TERMINATION',
    tag: 'termination',
  },
  {
    key: 'pageSize',
    part: 'size',
    values: null,
    read: parseSize,
    token: sizeLabel,
    pattern: '[0-9]+[km]?',
    default: 1024,
    choices: DEFAULT_SIZES,
    option: 'sizes',
    variable: 'PAGE_SIZE',
    tag: 'page_size',
  },
  {
    key: 'connection',
    part: 'connection',
    values: CONNECTIONS,
    default: 'keepalive',
    variable: 'CONNECTION',
    tag: 'connection',
  },
  {
    key: 'tlsSession',
    part: 'session',
    values: TLS_SESSIONS,
    default: 'full',
    option: 'tlsSessions',
    appliesTo: (cell) => cell.connection === 'close' && cell.termination !== 'http',
    inName: 'always',
    missing: (cell) =>
      `a ${cell.termination} close cell ends in :${TLS_SESSIONS.join(' or :')} (its TLS session)`,
    notApplicable: 'only close cells through a TLS route have a TLS session part',
    variable: 'TLS_SESSION',
    tag: 'tls_session',
    condition: 'TLS sessions',
    words: { full: 'full TLS handshakes (k6)', resumed: 'resumed TLS sessions (wrk or haload)' },
    reference: (table) => (table.tlsSession && table.tlsSession !== 'unknown' ? table.tlsSession : null),
  },
  {
    key: 'protocol',
    part: 'protocol',
    values: PROTOCOLS,
    default: 'h1',
    choices: ['h1'],
    option: 'protocols',
    appliesTo: (cell) => cell.termination !== 'http',
    inName: 'unlessDefault',
    notApplicable: 'only cells through a TLS route have a protocol part (ALPN chooses h2, inside TLS)',
    variable: 'PROTOCOL',
    tag: 'protocol',
    condition: 'HTTP version',
    words: { h2: 'HTTP/2' },
    // Red Hat's router figures are HTTP/1.1 ones.
    reference: () => 'h1',
  },
];

/** Examples for the messages that give the shape of a cell name and of a --cells pattern. */
const NAME_EXAMPLES = ['edge:1k:keepalive', 'edge:1k:close:resumed', 'edge:1k:keepalive:h2'];
const PATTERN_EXAMPLES = ['edge:1k:keepalive', 'edge:*:close:resumed'];

module.exports = {
  AXES,
  NAME_EXAMPLES,
  PATTERN_EXAMPLES,
  TERMINATIONS,
  tlsEndsAt,
  CONNECTIONS,
  TLS_SESSIONS,
  PROTOCOLS,
  DEFAULT_SIZES,
  MAX_PAGE_BYTES,
  parseSize,
  sizeLabel,
};
