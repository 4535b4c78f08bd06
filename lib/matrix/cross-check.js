'use strict';
// The cross-check: the same keep-alive cell driven by a second generator (wrk, or haload where wrk
// cannot go) beside k6. If the two disagree by more than THRESHOLDS.crossCheckGap, one of them
// (usually k6) was the limit, not the router.
const dns = require('node:dns').promises;
const { sizeLabel } = require('../../k6/lib/cells');
const { THRESHOLDS } = require('../results-model/verdicts');

const GAP_FLAG = THRESHOLDS.crossCheckGap;

/** Relative gap of k6 against wrk, flagged above 10 %. */
function compareTools(k6Rps, wrkRps) {
  if (!wrkRps) return { gap: null, flagged: false };
  const gap = (wrkRps - k6Rps) / wrkRps;
  return { gap: Number(gap.toFixed(3)), flagged: Math.abs(gap) > GAP_FLAG };
}

async function resolves(host) {
  try {
    await dns.lookup(host);
    return true;
  } catch {
    return false;
  }
}

/**
 * How wrk reaches a route: wrk takes the TLS SNI from the URL's host, so in the lab (where the
 * route host is only known to k6's `hosts` option) it connects to 127.0.0.1 with a Host header.
 * That works for http, edge and re-encrypt (routed by Host), not for passthrough (routed by SNI),
 * unless the route host resolves on this machine. Returns { url, host } or { skip: reason }.
 */
async function wrkTarget(cell, route, target) {
  const pathPart = `/api/pages/${sizeLabel(cell.pageSize)}`;
  // The lab, or a cluster's router at a given address: the route host resolves only for k6.
  const address = target.mode === 'lab' ? '127.0.0.1' : target.routerAddress;
  if (!address || (await resolves(route.host))) return { url: `${route.url}${pathPart}`, host: null };
  if (cell.termination === 'passthrough') {
    return {
      skip: `wrk sends the URL's host as SNI and ${route.host} does not resolve here, so it cannot reach a passthrough route`,
    };
  }
  const { port, protocol } = new URL(route.url);
  return { url: `${protocol}//${address}${port ? `:${port}` : ''}${pathPart}`, host: route.host };
}

/**
 * Which second generator cross-checks a keep-alive cell, and how it reaches the route: wrk where it
 * can; haload (which sets the SNI itself) on a passthrough route wrk cannot reach. Returns
 * { tool, url, host, sni? } or { tool, skip: reason }.
 */
async function crossCheckPlan(cell, route, target, { haload }) {
  const where = await wrkTarget(cell, route, target);
  if (!where.skip) return { tool: 'wrk', ...where };
  if (!haload) {
    return { tool: 'wrk', skip: `${where.skip}; haload could (npm run setup -- --for test builds it)` };
  }
  const { port } = new URL(route.url);
  const address = target.mode === 'lab' ? '127.0.0.1' : target.routerAddress;
  const url = `https://${address}${port ? `:${port}` : ''}/api/pages/${sizeLabel(cell.pageSize)}`;
  return { tool: 'haload', url, host: route.host, sni: route.host };
}

/**
 * Why the cross-check does not run for keep-alive cells with these options, or null when it does
 * (close cells are never cross-checked: the runner does not ask).
 */
function crossCheckSkip(opts) {
  if (opts.rate) {
    return `open model (--rate ${opts.rate}): k6 is held to the rate while wrk runs flat out, so their req/s cannot be compared`;
  }
  return null;
}

/**
 * Why a cell's k6 figures cannot be set against wrk's, or null: wrk speaks HTTP/1.1 only, so a
 * cell k6 ran (partly) over HTTP/2 measured another protocol.
 */
function protocolSkip(protocols = {}) {
  const other = Object.keys(protocols).filter((p) => p !== 'HTTP/1.1');
  if (!other.length) return null;
  return `k6 negotiated ${other.join(', ')} in this cell and wrk speaks HTTP/1.1 only: their req/s would compare two protocols`;
}

module.exports = { GAP_FLAG, compareTools, wrkTarget, crossCheckPlan, crossCheckSkip, protocolSkip };
