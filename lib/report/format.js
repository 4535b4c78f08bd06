'use strict';
// How the report writes numbers: times, shares, rates, and the cost figures the results model
// stored (µs of CPU per request, their spread across samples, the handshake floor), so the
// tables, charts, banner and console agree.

const missing = (v) => v === null || v === undefined || Number.isNaN(v);

const num = (v, digits = 0) => (missing(v) ? '–' : Number(v).toFixed(digits));

/** ms: two decimals below 10, one above. */
const ms = (v) => (missing(v) ? '–' : v < 10 ? Number(v).toFixed(2) : Number(v).toFixed(1));

/** A share as a percentage. */
const pct = (v, digits = 2) => (missing(v) ? '–' : `${(v * 100).toFixed(digits)} %`);

/** µs: one decimal below 10, whole above (the samples do not carry more precision than that). */
const us = (v) => (missing(v) ? '–' : v < 10 ? Number(v).toFixed(1) : String(Math.round(v)));

/** A spread as "median (min–max)", or the median alone where the samples agree to display precision. */
function spreadText(s, unit = us) {
  if (!s) return '–';
  const [min, median, max] = [unit(s.min), unit(s.median), unit(s.max)];
  return min === max ? median : `${median} (${min}–${max})`;
}

/** req/s in a sentence: 27.8k above 10,000, whole below. */
const rate = (v) => (missing(v) ? '–' : v >= 10000 ? `${(v / 1000).toFixed(1)}k` : String(Math.round(v)));

/** A role's cost in a cell ({ perRequestUs, perHandshakeUs }), or null where it was not measured. */
const roleCost = (cell, role) => (cell.cost && cell.cost[role]) || null;

/** The role's median µs per request, or null. */
function medianUs(cell, role, per = 'perRequestUs') {
  const cost = roleCost(cell, role);
  return cost && cost[per] ? cost[per].median : null;
}

const ROLE_NAMES = {
  router: 'router',
  service: 'data service',
  redis: 'redis',
  k6: 'k6',
  wrk: 'wrk',
  haload: 'haload',
};

const KEY_LABELS = { rsa2048: 'RSA 2048', 'ecdsa-p256': 'ECDSA P-256' };
const keyLabel = (key) => KEY_LABELS[key] || key;

/** What the floor is made of, short: "RSA 2048 signature + X25519". */
const floorParts = (floor) => `${keyLabel(floor.key)} signature + ${floor.group}`;

/** The floor in full, with both OpenSSLs: the one that timed it and the one the router runs on. */
function floorText(floor) {
  if (!floor) return null;
  const openssl = floor.openssl ? `, timed with ${floor.openssl}` : '';
  const router = floor.routerOpenssl
    ? `; the router runs on ${floor.routerOpenssl}`
    : '; the router’s OpenSSL is not known';
  return (
    `${us(floor.floorUs)} µs of CPU per full ${floor.protocol} handshake: the ${keyLabel(floor.key)} signature ` +
    `(${us(floor.signUs)} µs) + the ${floor.group} key exchange (${us(floor.keyExchangeUs)} µs)${openssl}${router}`
  );
}

/** A cell's name in words: "edge 1 kB close". */
const cellWords = (cell) =>
  `${cell.termination} ${cell.name.split(':')[1]} ${cell.connection === 'keepalive' ? 'keep-alive' : 'close'}` +
  (cell.tlsSession === 'resumed' ? ' (TLS sessions resumed)' : '');

/** A close TLS cell of full handshakes: every request one. */
const isHandshakeCell = (cell) => cell.tlsSession === 'full';

module.exports = {
  num,
  ms,
  pct,
  us,
  spreadText,
  rate,
  roleCost,
  medianUs,
  ROLE_NAMES,
  keyLabel,
  floorParts,
  floorText,
  cellWords,
  isHandshakeCell,
};
