'use strict';
// The cross-check: the same keep-alive cell driven by a second generator (wrk, or haload where wrk
// cannot go) beside k6. If the two disagree by more than THRESHOLDS.crossCheckGap, one of them
// (usually k6) was the limit, not the router.
const dns = require('node:dns').promises;
const { sizeLabel } = require('../../k6/lib/cells');
const { THRESHOLDS } = require('../results-model/verdicts');
const { notClose } = require('../load/haload-cell');

const GAP_FLAG = THRESHOLDS.crossCheckGap;

/** Relative gap of the cell's generator against the cross-check's tool, flagged above 10 %. */
function compareTools(generatorRps, toolRps) {
  if (!toolRps) return { gap: null, flagged: false };
  const gap = (toolRps - generatorRps) / toolRps;
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
 * How a client that does not resolve the route host reaches a route: the route's URL where its host
 * resolves (or no router address is known), else the router's address with the route host as Host
 * header ({ url, host, direct: false }). In the lab the route host is known only to k6's `hosts`.
 */
async function routeTarget(cell, route, target) {
  const pathPart = `/api/pages/${sizeLabel(cell.pageSize)}`;
  const address = target.mode === 'lab' ? '127.0.0.1' : target.routerAddress;
  if (!address || (await resolves(route.host)))
    return { url: `${route.url}${pathPart}`, host: null, direct: true };
  const { port, protocol } = new URL(route.url);
  return {
    url: `${protocol}//${address}${port ? `:${port}` : ''}${pathPart}`,
    host: route.host,
    direct: false,
  };
}

/**
 * How wrk reaches a route: wrk takes the TLS SNI from the URL's host, so through the router's
 * address it reaches http, edge and re-encrypt (routed by Host), not passthrough (routed by SNI).
 * Returns { url, host } or { skip: reason }.
 */
async function wrkTarget(cell, route, target) {
  const { url, host, direct } = await routeTarget(cell, route, target);
  if (!direct && cell.termination === 'passthrough') {
    return {
      skip: `wrk sends the URL's host as SNI and ${route.host} does not resolve here, so it cannot reach a passthrough route`,
    };
  }
  return { url, host };
}

/** How haload reaches a route: as routeTarget, with the route host as SNI on TLS (haload sets none by itself). */
async function haloadTarget(cell, route, target) {
  const { url, host } = await routeTarget(cell, route, target);
  return { url, host, sni: new URL(route.url).protocol === 'https:' ? route.host : undefined };
}

const NO_HALOAD = 'haload is not installed (npm run setup -- --for test builds it)';

/**
 * Which second generator cross-checks a cell, and how it reaches the route: wrk on HTTP/1.1
 * keep-alive where it can; haload on passthrough keep-alive (wrk cannot set the SNI), on h2 cells
 * (wrk speaks HTTP/1.1 only) and on every close cell, a request per connection with the cell's
 * kind of TLS session. Returns { tool, url, host, sni?, perConnection?, resume, protocol } or
 * { tool, skip: reason }.
 */
async function crossCheckPlan(cell, route, target, { haload }) {
  if (cell.connection === 'keepalive' && cell.protocol !== 'h2') {
    const where = await wrkTarget(cell, route, target);
    if (!where.skip) return { tool: 'wrk', ...where };
    if (!haload) return { tool: 'wrk', skip: `${where.skip}, and ${NO_HALOAD}` };
  } else if (!haload) {
    return { tool: 'haload', skip: `close and h2 cells are cross-checked by haload, and ${NO_HALOAD}` };
  }
  return {
    tool: 'haload',
    ...(await haloadTarget(cell, route, target)),
    perConnection: cell.connection === 'close' ? 1 : undefined,
    resume: cell.tlsSession !== 'full',
    protocol: cell.protocol ?? 'h1',
  };
}

/**
 * Why a close cell's cross-check run does not count, or null: haload asked for a request per
 * connection opened far fewer connections (it does not honour -r 1 over h2, measured here).
 */
function closeSkip(plan, run) {
  const reused = plan.perConnection === 1 ? notClose(run) : null;
  if (!reused) return null;
  const why = plan.protocol === 'h2' ? 'over h2 it reuses them' : 'this run it reused them';
  return `${reused} (${why}): not a close cell's figures`;
}

/**
 * The cross-check's runs as one: the run of median req/s stands for them (its figures belong
 * together), and `samples` keeps each run's req/s and CPU, for the intervals of the router's figure.
 */
function poolToolRuns(runs) {
  const byRate = [...runs].sort((a, b) => a.rps - b.rps);
  const median = byRate[Math.floor((byRate.length - 1) / 2)];
  const samples = runs.map(({ rps, cpuCores, routerCpuCores }) => ({ rps, cpuCores, routerCpuCores }));
  return { ...median, samples };
}

/**
 * Why the cross-check does not run with these options, or null when it does.
 */
function crossCheckSkip(opts) {
  if (opts.rate) {
    return `open model (--rate ${opts.rate}): k6 is held to the rate while the cross-check runs flat out, so their req/s cannot be compared`;
  }
  return null;
}

/** Why a cell its own generator ran with haload is not cross-checked: the cross-check is haload too. */
function sameToolSkip(tool, cell) {
  if (tool !== 'haload' || cell.connection !== 'close') return null;
  return 'haload is this cell’s own generator (neither k6 nor wrk can run it), and it would be its cross-check too';
}

/**
 * Why a cell's k6 figures cannot be set against the cross-check's, or null: the cross-check forces
 * the cell's HTTP version, so a cell k6 ran (partly) over another measured another protocol.
 */
function protocolSkip(cell, protocols = {}) {
  const asked = cell.protocol === 'h2' ? 'HTTP/2.0' : 'HTTP/1.1';
  const other = Object.keys(protocols).filter((p) => p !== asked);
  if (!other.length) return null;
  return `k6 read ${other.join(', ')} in this cell, not only the ${asked} its cross-check forces: their req/s would compare two protocols`;
}

module.exports = {
  GAP_FLAG,
  compareTools,
  wrkTarget,
  haloadTarget,
  crossCheckPlan,
  crossCheckSkip,
  protocolSkip,
  closeSkip,
  poolToolRuns,
  sameToolSkip,
  NO_HALOAD,
};
