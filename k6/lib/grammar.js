'use strict';
// The one grammar of settings' values: the lab's and matrix's settings, the k6 scripts and (an
// identical copy, since it ships alone) the data service read booleans, numbers, durations, sizes
// and lists with it. test/core/grammar.unit.test.js runs one table against both copies.

const BOOLEANS = new Map([
  ...['true', 'yes', 'on', '1'].map((word) => [word, true]),
  ...['false', 'no', 'off', '0'].map((word) => [word, false]),
]);
const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;
// As k6 writes durations (a subset of Go's): 30s, 1m30s, 500ms, 2h.
const DURATION = /^(\d+(ms|s|m|h))+$/;
const DURATION_UNITS = { ms: 0.001, s: 1, m: 60, h: 3600 };
const SIZE = /^(\d+)([km]?)$/i;
const SIZE_UNITS = { '': 1, k: 1024, m: 1024 * 1024 };

/** A value as text: a string trimmed, a finite number written out; undefined for anything else. */
function text(raw) {
  if (typeof raw === 'string') return raw.trim();
  return typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : undefined;
}

function duration(raw) {
  const t = text(raw);
  if (t === undefined || !DURATION.test(t)) return undefined;
  return [...t.matchAll(/(\d+)(ms|s|m|h)/g)].reduce((sum, [, n, unit]) => sum + n * DURATION_UNITS[unit], 0);
}

/** Each kind: raw text (or a JSON value) → its value, or undefined when it is not of the kind. */
const READERS = {
  boolean: (raw) => (typeof raw === 'boolean' ? raw : BOOLEANS.get(String(text(raw)).toLowerCase())),
  integer: (raw) =>
    INTEGER.test(text(raw)) && Number.isSafeInteger(Number(text(raw))) ? Number(text(raw)) : undefined,
  number: (raw) => (NUMBER.test(text(raw)) ? Number(text(raw)) : undefined),
  duration,
  // A setting kept in seconds takes a bare number of them too.
  seconds: (raw) => (NUMBER.test(text(raw)) ? Number(text(raw)) : duration(raw)),
  size: (raw) => {
    const match = SIZE.exec(text(raw));
    return match ? Number(match[1]) * SIZE_UNITS[match[2].toLowerCase()] : undefined;
  },
  list: (raw) => {
    const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
    if (items.some((item) => typeof item !== 'string')) return undefined;
    const list = items.map((item) => item.trim()).filter(Boolean);
    return list.length ? list : undefined;
  },
};

const KINDS = {
  boolean: 'true or false (also yes/no, on/off, 1/0)',
  integer: 'an integer',
  number: 'a number',
  duration: 'a duration such as 30s, 1m30s or 500ms',
  seconds: 'a number of seconds or a duration such as 30s, 1m30s or 500ms',
  size: 'a size such as 1024, 4k or 1m',
  list: 'a comma-separated list',
};
// Kinds described by examples take their range after a comma, with its unit.
const UNITS = { duration: ' s', seconds: ' s', size: ' bytes' };

/** What `kind` accepts within min and max, for messages: 'an integer from 1 to 16'. */
function accepts(kind, { min, max } = {}) {
  const unit = UNITS[kind] || '';
  const range =
    (min !== undefined && max !== undefined && `from ${min}${unit} to ${max}${unit}`) ||
    (min !== undefined && `≥ ${min}${unit}`) ||
    (max !== undefined && `≤ ${max}${unit}`);
  if (kind === 'integer' && min === 1 && max === undefined) return 'a positive integer';
  return range ? `${KINDS[kind]}${unit ? ',' : ''} ${range}` : KINDS[kind];
}

/** `raw` read as `kind` and within min and max, or undefined when it is not. */
function read(kind, raw, { min, max } = {}) {
  if (!READERS[kind]) throw new Error(`no kind of value called ${JSON.stringify(kind)}`);
  const value = READERS[kind](raw);
  if (value === undefined || (min !== undefined && value < min) || (max !== undefined && value > max)) {
    return undefined;
  }
  return value;
}

/** The message for a refused value, naming where it came from: 'RATE must be an integer, got "x"'. */
function refusal(name, kind, raw, range) {
  return `${name} must be ${accepts(kind, range)}, got ${JSON.stringify(raw)}`;
}

module.exports = { KINDS: Object.keys(KINDS), read, accepts, refusal };
