'use strict';
// Sizing for a traffic mix (npm run sizing -- --mix edge=60,reencrypt=30,passthrough=10): each
// entry's share of the target TPS at its cell's cost (measured, or its cost curve's), summed into
// router cores, then its shape (replicas × threads), the service's pods, and which is the limit.
const { TERMINATIONS } = require('../../k6/lib/cells');
const { coresFor, medianCostUs, wholeUnits, SERVICE_CORES_PER_INSTANCE } = require('./sizing');
const { UsageError } = require('../core/settings');
const { fittedCurve } = require('./cost-curve');
const { OPENSHIFT_DEFAULTS } = require('../lab/common/options');

/** OpenShift's IngressController defaults: its HAProxy threads per pod, 2 pods on a cluster with HA. */
const OPENSHIFT_ROUTER = { threads: OPENSHIFT_DEFAULTS.threads, replicas: 2 };

/** A mix problem, said as a usage error (exit 2) naming the entry. */
const mixError = (message) => new UsageError(`--mix: ${message}`, { setting: '--mix' });

/** 'edge=60,reencrypt:4k:close=30' → [{ key: 'edge', percent: 60 }, …]; pure syntax, shares checked. */
function parseMix(entries) {
  const parsed = entries.map((entry) => {
    const m = /^([a-z0-9:]+)=(\d+(?:\.\d+)?)%?$/i.exec(entry.trim());
    if (!m) throw mixError(`${JSON.stringify(entry)} is not CELL=PERCENT (edge=60, edge:4k:close=20)`);
    if (Number(m[2]) === 0) throw mixError(`${entry}: a share of 0 % sizes nothing; leave the entry out`);
    const termination = m[1].split(':')[0];
    if (!TERMINATIONS.includes(termination)) {
      throw mixError(
        `unknown termination ${JSON.stringify(termination)} in ${entry} (one of ${TERMINATIONS.join(', ')})`,
      );
    }
    return { key: m[1], percent: Number(m[2]) };
  });
  const total = parsed.reduce((sum, e) => sum + e.percent, 0);
  if (total > 100 + 1e-9) throw mixError(`the shares add up to ${total} %, over 100 %`);
  const keys = parsed.map((e) => e.key);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice) throw mixError(`${twice} is given twice`);
  return parsed;
}

/**
 * The run's cell for an entry's key: the cells whose name begins with the key's parts; of several,
 * the run's 1k page (or its first size), keep-alive, then a full handshake.
 */
function cellFor(key, cells, sizes) {
  const given = key.split(':');
  const matching = cells.filter((c) => given.every((part, i) => c.name.split(':')[i] === part));
  if (!matching.length) {
    throw mixError(`${key} matches no cell of this run (it has ${cells.map((c) => c.name).join(', ')})`);
  }
  const size = sizes.includes('1k') ? '1k' : sizes[0];
  const rank = (c) => {
    const [, pageSize, connection, session] = c.name.split(':');
    return (
      (pageSize === size ? 0 : 4) + (connection === 'keepalive' ? 0 : 2) + (session === 'resumed' ? 1 : 0)
    );
  };
  return matching.reduce((best, c) => (rank(c) < rank(best) ? c : best));
}

/**
 * The router's shape for `cores`: pods (at least `replicas`), and one HAProxy thread per core a pod
 * needs, up to `threads` (the IngressController's threadCount): a thread without a core adds nothing.
 */
function routerShape(cores, { threads, replicas }) {
  if (cores === null) return null;
  const pods = Math.max(replicas, Math.ceil(cores / threads));
  const perPod = Math.min(threads, Math.max(1, Math.ceil(cores / pods)));
  return { replicas: pods, threads: perPod, cores: pods * perPod };
}

/**
 * The mix `entries` (parseMix) sized against `results` at `tps` with `headroom`, for a router of
 * `router` ({ threads, replicas }: its threads per pod and fewest pods). Pure.
 */
function sizeMix(results, entries, { tps, headroom, router = OPENSHIFT_ROUTER }) {
  const sizes = results.options?.sizes || ['1k'];
  const rows = entries.map(({ key, percent }) => {
    const cell = cellFor(key, results.cells, sizes);
    const share = (tps * percent) / 100;
    // On a fitted curve (--cost-curve) a request costs the slope; the fixed cores are the router's
    // whole, counted once below, not once per entry.
    const curve = fittedCurve(cell);
    const routerUs = curve ? curve.perRequestUs : medianCostUs(cell.cost.router);
    const serviceUs = medianCostUs(cell.cost.service);
    // Busy cores at the share, before headroom: the shares of the router's cores add up.
    return {
      key,
      cell: cell.name,
      percent,
      tps: share,
      routerUs,
      routerBasis: curve ? 'curve' : 'measured',
      fixedCores: curve ? Math.max(0, curve.fixedCores) : 0,
      serviceUs,
      routerBusy: coresFor(share, routerUs, 0),
      serviceBusy: coresFor(share, serviceUs, 0),
    };
  });
  const sum = (k) => (rows.some((r) => r[k] === null) ? null : rows.reduce((s, r) => s + r[k], 0));
  const fixedCores = Math.max(0, ...rows.map((r) => r.fixedCores));
  const perRequestBusy = sum('routerBusy');
  const routerBusy = perRequestBusy === null ? null : perRequestBusy + fixedCores;
  const serviceBusy = sum('serviceBusy');
  const spare = 1 - headroom;
  const routerCores = wholeUnits(routerBusy === null ? null : routerBusy / spare);
  const shape = routerShape(routerCores, router);
  const servicePods = wholeUnits(
    serviceBusy === null ? null : serviceBusy / spare / SERVICE_CORES_PER_INSTANCE,
    1,
  );
  return {
    tps,
    headroom,
    coveredPercent: rows.reduce((s, r) => s + r.percent, 0),
    entries: rows.map((r) => ({
      key: r.key,
      cell: r.cell,
      percent: r.percent,
      tps: Number(r.tps.toFixed(1)),
      routerUs: r.routerUs,
      routerBasis: r.routerBasis,
      serviceUs: r.serviceUs,
      routerCoreShare: routerBusy ? Number((r.routerBusy / routerBusy).toFixed(4)) : null,
    })),
    router: {
      cores: routerCores,
      exactCores: routerBusy === null ? null : routerBusy / spare,
      fixedCores: Number(fixedCores.toFixed(3)),
      ...(shape && { shape }),
    },
    service: { pods: servicePods, coresPerPod: SERVICE_CORES_PER_INSTANCE },
    redis:
      'not exercised: /api/pages does not touch Redis (size it from the bank workload, docs/exercise-bank-workload.md)',
    limit: limitOf({ routerCores, servicePods }),
  };
}

/** Which role needs the most cores for the mix: the one to scale first; none while a cost is unknown. */
function limitOf({ routerCores, servicePods }) {
  if (routerCores === null || servicePods === null) {
    return { role: null, why: 'not every role’s cost was measured (a cluster run without --prometheus?)' };
  }
  const serviceCores = servicePods * SERVICE_CORES_PER_INSTANCE;
  const [role, cores] =
    routerCores >= serviceCores ? ['router', routerCores] : ['data service', serviceCores];
  return { role, cores, why: `${role} needs the most cores for this mix (${cores})` };
}

module.exports = { parseMix, sizeMix, cellFor, routerShape, OPENSHIFT_ROUTER };
