'use strict';
// The bank's last question: the router cores, data-service instances and generator cores a target
// TPS needs, from measured CPU per request with stated headroom. A projection from one machine: cost
// per request assumed flat up to saturation, and a core here worth a core there.

/** Default headroom: plan each role to run at most this share of what it has. */
const DEFAULT_HEADROOM = 0.3;
/** A Node.js instance runs its JavaScript on one core. */
const SERVICE_CORES_PER_INSTANCE = 1;

/** A role's median µs of CPU per request (a cell's cost.<role>), or null where it was not measured. */
const medianCostUs = (role) => role?.perRequestUs?.median ?? null;

/** Whole units for `exact` (a float's last bit does not add one), at least `min`; null stays null. */
const wholeUnits = (exact, min = 0) => (exact === null ? null : Math.max(min, Math.ceil(exact - 1e-9)));

/** Cores for `tps` requests/s at `costUs` µs of CPU each, kept below (1 − headroom) busy. */
function coresFor(tps, costUs, headroom = DEFAULT_HEADROOM) {
  if (!(costUs > 0) || !(tps > 0)) return null;
  return (tps * costUs) / 1e6 / (1 - headroom);
}

/**
 * Router cores for `tps` on a fitted cost curve (lib/results-model/cost-curve.js): its fixed cores
 * plus µs per request × tps, kept below (1 − headroom) busy.
 */
function coresOnCurve(tps, { fixedCores, perRequestUs }, headroom = DEFAULT_HEADROOM) {
  if (!(perRequestUs > 0) || !(tps > 0)) return null;
  return (Math.max(0, fixedCores) + (tps * perRequestUs) / 1e6) / (1 - headroom);
}

/**
 * One cell's sizing: { routerCores, serviceInstances, generatorCores: { k6, wrk } }, each rounded
 * up to whole units, plus the raw core figures. costs: { routerUs, serviceUs, k6Us, wrkUs } per
 * request (null where not measured); routerCurve, where measured, sizes the router instead of routerUs.
 */
function sizeCell(
  { routerUs, serviceUs, k6Us, wrkUs, routerCurve = null },
  { tps, headroom = DEFAULT_HEADROOM },
) {
  if (!(tps > 0)) throw new Error(`the target TPS must be a positive number, not ${tps}`);
  if (!(headroom >= 0 && headroom < 1))
    throw new Error(`headroom must be from 0 to below 1, not ${headroom}`);
  const router = routerCurve ? coresOnCurve(tps, routerCurve, headroom) : coresFor(tps, routerUs, headroom);
  const service = coresFor(tps, serviceUs, headroom);
  const k6 = coresFor(tps, k6Us, headroom);
  const wrk = coresFor(tps, wrkUs, headroom);
  return {
    tps,
    headroom,
    routerCores: wholeUnits(router),
    serviceInstances: service === null ? null : wholeUnits(service / SERVICE_CORES_PER_INSTANCE, 1),
    generatorCores: { k6: wholeUnits(k6), wrk: wholeUnits(wrk) },
    exact: { routerCores: router, serviceCores: service, k6Cores: k6, wrkCores: wrk },
  };
}

module.exports = {
  DEFAULT_HEADROOM,
  SERVICE_CORES_PER_INSTANCE,
  medianCostUs,
  wholeUnits,
  coresFor,
  coresOnCurve,
  sizeCell,
};
