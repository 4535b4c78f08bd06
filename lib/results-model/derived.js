'use strict';
// What finalize derives from a cell's measured cost and the run's context: the router's capacity
// (per core, and projected at its threads), each close TLS cell's multiple of the handshake floor
// measured in the same run, and the run's sizing at its target.
const { parseCpuList } = require('../core/cpus');
const { capacity } = require('./cost');
const { fittedCurve } = require('./cost-curve');
const { DEFAULT_HEADROOM, sizeCell, medianCostUs } = require('./sizing');
const { cellName, tlsEndsAt } = require('../../k6/lib/cells');

const round = (v, digits = 1) =>
  typeof v === 'number' && Number.isFinite(v) ? Number(v.toFixed(digits)) : null;

/** The router's threads and the cores it may use, from the environment; {} when not known. */
function routerCores(environment) {
  const cluster = environment && environment.clusterRouter;
  // A cluster's router: every pod's threads, each pod on a node with cores for them; nothing
  // known where its threads or pods are not.
  if (cluster) {
    if (!cluster.threads || !cluster.replicas) return {};
    const cores = cluster.threads * cluster.replicas;
    return { threads: cores, allowedCores: cores };
  }
  const router = environment && environment.router;
  if (!router) return {};
  const allowedCores = router.cpus ? parseCpuList(router.cpus).length : environment.cores;
  return { threads: router.threads, allowedCores };
}

/**
 * The router's capacity from its median cost per request: a projection that assumes the cost
 * stays flat up to saturation. `measuredRps`: the cell's own ok req/s where the router was at its
 * limit, the check of the projection. Null where the router's cost was not measured.
 */
function capacityOf(cell, router) {
  const projected = capacity(medianCostUs(cell.cost.router), {
    threads: router.threads ?? 1,
    cores: router.allowedCores ?? 1,
  });
  if (!projected) return null;
  const atLimit = cell.limitedBy.by.split('+').includes('router');
  return {
    perCoreRps: round(projected.perCoreRps, 0),
    usableCores: projected.usableCores,
    projectedRps: round(projected.projectedRps, 0),
    measuredRps: atLimit ? cell.okRps : null,
    basis:
      'projection: 1 s of CPU ÷ the router’s median µs per request, times the cores its threads can use; assumes the cost per request stays flat up to saturation',
  };
}

/**
 * A close TLS cell's CPU per full handshake as a multiple of the floor (the signature plus the key
 * exchange, timed by openssl speed): { role, min, median, max }, or null.
 */
function floorMultipleOf(cell, floor) {
  if (!floor || cell.connection !== 'close' || cell.termination === 'http') return null;
  const role = tlsEndsAt(cell.termination);
  const perHandshake = cell.cost[role] && cell.cost[role].perHandshakeUs;
  if (!perHandshake || !(floor.floorUs > 0)) return null;
  const times = (v) => round(v / floor.floorUs, 2);
  return {
    role,
    min: times(perHandshake.min),
    median: times(perHandshake.median),
    max: times(perHandshake.max),
  };
}

/** The plain close of `full`'s page: http, no TLS; undefined if not measured. */
const plainCloseOf = (cells, full) =>
  cells.find((c) => c.termination === 'http' && c.connection === 'close' && c.pageSize === full.pageSize);

/**
 * The router's µs per request in `cell` as `tool` drove it: the cell's own generator or its
 * cross-check (which measures the router only); null where `tool` did not drive it.
 */
function routerUsBy(cell, tool) {
  if (!cell) return null;
  if (cell.generator?.tool === tool) return medianCostUs(cell.cost.router);
  const x = cell.crossCheck;
  return x?.tool === tool && !x.skipped ? (x.routerUs?.median ?? x.routerPerRequestUs ?? null) : null;
}

/** What resuming saves and each beyond a plain close, from one set of µs per request. */
function priceFigures({ fullUs, resumedUs, plainUs }, floorUs) {
  const priceUs = fullUs - resumedUs;
  const beyond = (us) => (plainUs === null ? null : round(us - plainUs));
  return {
    fullUs: round(fullUs),
    resumedUs: round(resumedUs),
    priceUs: round(priceUs),
    floorMultiple: floorUs ? round(priceUs / floorUs, 2) : null,
    plainUs: plainUs === null ? null : round(plainUs),
    fullBeyondPlainUs: beyond(fullUs),
    fullBeyondPlainMultiple: floorUs && plainUs !== null ? round((fullUs - plainUs) / floorUs, 2) : null,
    resumedBeyondPlainUs: beyond(resumedUs),
  };
}

// The generator that can drive all three close runs (full, resumed, plain) alike: the cells mix
// k6 (which never resumes) and wrk (which always does), so their differences cross tools.
const ONE_GENERATOR = 'haload';

/** The same figures with haload driving the router's full, resumed and plain close runs alike; or null. */
function oneGeneratorPrice(full, resumed, plain, role, floorUs) {
  if (role !== 'router') return null;
  const [fullUs, resumedUs, plainUs] = [full, resumed, plain].map((c) => routerUsBy(c, ONE_GENERATOR));
  if (fullUs === null || resumedUs === null) return null;
  return { tool: ONE_GENERATOR, ...priceFigures({ fullUs, resumedUs, plainUs }, floorUs) };
}

/**
 * What resuming saves, per termination and page size measured both ways: the CPU per request of
 * the role that ends the TLS in the full cell minus that in the resumed cell (the signature and the
 * key exchange a resumed session skips), beside the floor openssl speed timed. Where the plain
 * close (http, no TLS) was measured too, each beyond it: what a full handshake costs, and what a
 * resumed session costs of its own. Each cell's own generator made these; where haload drove all
 * three (--cross-check), oneGenerator holds the same figures from it alone. [{ termination,
 * pageSize, role, fullCell, resumedCell, generators: { full, resumed, plain }, floorUs, hostBusy
 * (any of the cells on a host busy with other work), fullUs,
 * resumedUs, priceUs, floorMultiple, plainUs, fullBeyondPlainUs, fullBeyondPlainMultiple,
 * resumedBeyondPlainUs, oneGenerator }]; empty where no pair was measured.
 */
function handshakePrices(cells, floor) {
  const prices = [];
  for (const full of cells.filter((c) => c.tlsSession === 'full')) {
    // Its resumed twin: the same on every other axis (k6/lib/axes.js).
    const resumedName = cellName({ ...full, tlsSession: 'resumed' });
    const resumed = cells.find((c) => c.name === resumedName);
    if (!resumed) continue;
    const role = tlsEndsAt(full.termination);
    const fullUs = medianCostUs(full.cost[role]);
    const resumedUs = medianCostUs(resumed.cost[role]);
    if (fullUs === null || resumedUs === null) continue;
    const floorUs = floor && floor.floorUs > 0 ? floor.floorUs : null;
    const plain = plainCloseOf(cells, full);
    const plainUs = plain ? medianCostUs(plain.cost[role]) : null;
    const toolOf = (c) => c?.generator?.tool ?? null;
    prices.push({
      termination: full.termination,
      pageSize: full.pageSize,
      role,
      fullCell: full.name,
      resumedCell: resumed.name,
      generators: { full: toolOf(full), resumed: toolOf(resumed), plain: toolOf(plain) },
      floorUs,
      // A busy host makes a difference of two medians noisy: the price says it came from one.
      hostBusy: [full, resumed, plain].some((c) => c?.limitedBy?.hostBusy === true),
      ...priceFigures({ fullUs, resumedUs, plainUs }, floorUs),
      oneGenerator: oneGeneratorPrice(full, resumed, plain, role, floorUs),
    });
  }
  return prices;
}

/**
 * The run's sizing for `tps` with `headroom`: per cell, the router cores, data-service instances
 * and load-generator cores the measured medians imply.
 */
function sizing(cells, { tps, headroom = DEFAULT_HEADROOM, cluster = false }) {
  return {
    tps,
    headroom,
    assumptions: [
      'the median CPU cost per request of each role, as measured in this run, stays flat up to the target',
      ...(cells.some(fittedCurve)
        ? [
            "the router's, where --cost-curve fitted it: its fixed cores + µs per request × the target (router cores marked curve)",
          ]
        : []),
      `each role runs at most ${Math.round((1 - headroom) * 100)} % busy (${Math.round(headroom * 100)} % headroom)`,
      'a data-service instance runs on one core (Node.js); a core here is worth a core there',
      cluster
        ? 'a projection from the pods measured on this cluster, at their nodes’ speed'
        : 'a projection from one machine, not a cluster measurement',
    ],
    cells: cells.map((cell) => {
      const curve = fittedCurve(cell);
      const sized = sizeCell(
        {
          routerCurve: curve,
          routerUs: medianCostUs(cell.cost.router),
          serviceUs: medianCostUs(cell.cost.service),
          k6Us: medianCostUs(cell.cost.k6),
          wrkUs: medianCostUs(cell.cost.wrk),
        },
        { tps, headroom },
      );
      return {
        name: cell.name,
        routerCores: sized.routerCores,
        routerBasis: curve ? 'curve' : 'median',
        serviceInstances: sized.serviceInstances,
        k6Cores: sized.generatorCores.k6,
        wrkCores: sized.generatorCores.wrk,
      };
    }),
  };
}

module.exports = {
  handshakePrices,
  routerCores,
  capacityOf,
  floorMultipleOf,
  sizing,
};
