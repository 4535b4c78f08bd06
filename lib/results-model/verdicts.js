'use strict';
// Who limited a cell: the load generator, the data-service instances, the router, or unknown
// (not measured). Pure functions over a cell's figures, so they can be tested with made-up
// numbers; each verdict carries its reasons in words. The document module (./document.js) calls
// limitOf once per cell when it finalizes a run; renderers only format its answer.
const { vusExhausted } = require('../../k6/lib/generator');

const THRESHOLDS = {
  // A process using this share of the cores it may run on has no headroom left.
  cpuNearFull: 0.85,
  // The host counts as full above this busy share of all its cores...
  hostBusy: 0.9,
  // ...and k6 as the limit then if it burns at least this share of the busy CPU time, or at
  // least this multiple of the busiest process of the system under test (router, instances).
  k6ShareOfBusy: 0.4,
  k6OverLargest: 1.5,
  // ...the latter only when k6 burns real CPU: 0.03 cores against a router's 0.01 is a light
  // cell on a host busy with other work, not a generator at its limit.
  k6MinCores: 0.25,
  // A Node.js instance runs JavaScript on one core.
  instanceNearFullCore: 0.85,
  // Service time counts as risen at this multiple of the lightest cell's, and at least this much.
  serviceTimeRatio: 2,
  serviceTimeMinRiseMs: 0.2,
};

const fmt = (v, digits = 2) => Number(v).toFixed(digits);

/**
 * m: { k6CpuCores, k6AllowedCores, hostBusyFraction, hostCores, labCpuCores ({ router: 0.2,
 *      'data-service-1': 0.1, … }), droppedIterations, executor, vusActiveMax (max of k6's `vus`),
 *      maxVus, busyVus (average VUs busy, by Little's law) }
 */
function generatorVerdict(m, t = THRESHOLDS) {
  const reasons = [];
  if (m.k6CpuCores !== undefined && m.k6AllowedCores) {
    if (m.k6CpuCores >= t.cpuNearFull * m.k6AllowedCores) {
      reasons.push(`k6 used ${fmt(m.k6CpuCores)} of the ${m.k6AllowedCores} cores it may use`);
    } else if (m.hostBusyFraction !== undefined && m.hostBusyFraction >= t.hostBusy) {
      const busyCores = m.hostBusyFraction * m.hostCores;
      const others = Object.entries(m.labCpuCores || {}).filter(([, v]) => typeof v === 'number');
      const biggest = others.reduce((max, [, v]) => Math.max(max, v), 0);
      const busy = `the host's ${m.hostCores} cores were ${Math.round(m.hostBusyFraction * 100)} % busy`;
      if (m.k6CpuCores >= t.k6ShareOfBusy * busyCores) {
        reasons.push(
          `${busy} and k6 used ${fmt(m.k6CpuCores)} cores of them: k6 competes with the router for CPU`,
        );
      } else if (others.length && m.k6CpuCores >= t.k6MinCores && m.k6CpuCores >= t.k6OverLargest * biggest) {
        const list = others.map(([name, v]) => `${name} ${fmt(v)}`).join(', ');
        reasons.push(
          `${busy} and k6 used ${fmt(m.k6CpuCores)} cores, more than any part of the system under test (${list})`,
        );
      }
    }
  }
  if (m.droppedIterations > 0) {
    reasons.push(`${m.droppedIterations} iterations dropped: k6 could not start requests at the set rate`);
  }
  if (m.executor === 'constant-arrival-rate' && vusExhausted(m)) {
    reasons.push(
      m.droppedIterations > 0
        ? `all ${m.maxVus} VUs were in use (VUs exhausted)`
        : `on average ${fmt(m.busyVus, 1)} of the ${m.maxVus} VUs were busy waiting for responses (VUs exhausted)`,
    );
  }
  return { saturated: reasons.length > 0, reasons };
}

/**
 * m: { instances: [{ name, cpuCores }], serviceP50Ms, baselineServiceP50Ms, baselineCell }
 */
function backendVerdict(m, t = THRESHOLDS) {
  const reasons = [];
  for (const instance of m.instances || []) {
    if (instance.cpuCores >= t.instanceNearFullCore) {
      reasons.push(`${instance.name} used ${fmt(instance.cpuCores)} core (Node.js runs on one)`);
    }
  }
  const base = m.baselineServiceP50Ms;
  const now = m.serviceP50Ms;
  if (base !== undefined && base !== null && now !== undefined && now !== null) {
    if (now >= t.serviceTimeRatio * base && now - base >= t.serviceTimeMinRiseMs) {
      reasons.push(
        `service time p50 rose to ${fmt(now, 3)} ms from ${fmt(base, 3)} ms in the lightest cell` +
          (m.baselineCell ? ` (${m.baselineCell})` : ''),
      );
    }
  }
  return { saturated: reasons.length > 0, reasons };
}

/**
 * The host itself: busy, but not with the processes of the lab (other work on the machine).
 * m: { hostBusyFraction, hostCores, labCpuCores (k6 + router + instances + redis) }
 */
function hostVerdict(m, t = THRESHOLDS) {
  if (m.hostBusyFraction === null || m.hostBusyFraction === undefined || !m.hostCores) {
    return { contended: false, reasons: [], otherCpuCores: null };
  }
  const busyCores = m.hostBusyFraction * m.hostCores;
  const otherCpuCores = Math.max(0, busyCores - (m.labCpuCores || 0));
  const reasons = [];
  if (m.hostBusyFraction >= t.hostBusy && otherCpuCores >= 0.25 * m.hostCores) {
    reasons.push(
      `the host's ${m.hostCores} cores were ${Math.round(m.hostBusyFraction * 100)} % busy and ` +
        `${fmt(otherCpuCores)} cores went to processes outside the test: the figures are lower and noisier than the router can do`,
    );
  }
  return { contended: reasons.length > 0, reasons, otherCpuCores: Number(otherCpuCores.toFixed(2)) };
}

/**
 * Adds the cross-check's evidence: wrk getting clearly more through the same cell. Closed model
 * only: with --rate the runner skips the cross-check (wrk.js crossCheckSkip).
 */
function withCrossCheck(generator, crossCheck) {
  if (!crossCheck || !crossCheck.rps || !crossCheck.flagged || crossCheck.gap <= 0) return generator;
  return {
    ...generator,
    saturated: true,
    reasons: [
      ...generator.reasons,
      `wrk got ${Math.round(crossCheck.rps)} req/s through the same cell, ${Math.round(crossCheck.gap * 100)} % more than k6`,
    ],
  };
}

const measured = (v) => typeof v === 'number';

/** CPU of the processes of the system under test, by name: { router: 0.2, 'data-service-1': 0.1 }. */
function systemCpuCores(cell) {
  return Object.fromEntries(
    [{ name: 'router', cpuCores: cell.router.cpuCores }, ...cell.backend.instances].map((p) => [
      p.name,
      p.cpuCores,
    ]),
  );
}

/**
 * One cell's limit: { by, hostBusy, reasons: [{ role, text }] }. `by` is 'generator', 'backend',
 * 'generator+backend' on evidence of a limit; 'router' only when k6's and the data service's CPU
 * were measured and showed headroom; 'unknown' when they were not (an in-cluster run), never
 * 'router' by elimination. `baseline`: the run's lightest cell (lowest service p50), for the
 * backend's service-time evidence; `executor`: the run's load model.
 */
function limitOf(cell, { baseline = null, executor } = {}) {
  const g = cell.generator;
  const generator = withCrossCheck(
    generatorVerdict({
      k6CpuCores: g.k6CpuCores ?? undefined,
      k6AllowedCores: g.k6AllowedCores,
      hostBusyFraction: cell.host.busyFraction ?? undefined,
      hostCores: cell.host.cores,
      labCpuCores: systemCpuCores(cell),
      droppedIterations: g.droppedIterations,
      executor,
      vusActiveMax: g.vusMax,
      maxVus: g.maxVus,
      busyVus: g.busyVus,
    }),
    cell.crossCheck,
  );
  const backend = backendVerdict({
    instances: cell.backend.instances.filter((i) => measured(i.cpuCores)),
    serviceP50Ms: cell.serviceTimeMs ? cell.serviceTimeMs.p50 : null,
    baselineServiceP50Ms: baseline ? baseline.serviceTimeMs.p50 : null,
    baselineCell: baseline && baseline.name !== cell.name ? baseline.name : null,
  });
  const labCores = [
    g.k6CpuCores,
    cell.router.cpuCores,
    ...[...cell.backend.instances, ...cell.backend.redis].map((p) => p.cpuCores),
  ];
  const host = hostVerdict({
    hostBusyFraction: cell.host.busyFraction,
    hostCores: cell.host.cores,
    labCpuCores: labCores.reduce((sum, v) => sum + (v || 0), 0),
  });
  const reasons = [
    ...generator.reasons.map((text) => ({ role: 'generator', text })),
    ...backend.reasons.map((text) => ({ role: 'backend', text })),
    ...host.reasons.map((text) => ({ role: 'host', text })),
  ];
  let by = [generator.saturated && 'generator', backend.saturated && 'backend'].filter(Boolean).join('+');
  if (!by) {
    const unmeasured = [];
    if (!measured(g.k6CpuCores)) unmeasured.push("k6's CPU");
    if (!cell.backend.instances.some((i) => measured(i.cpuCores))) unmeasured.push("the data service's CPU");
    by = unmeasured.length ? 'unknown' : 'router';
    if (unmeasured.length) {
      reasons.push({
        role: 'unmeasured',
        text: `${unmeasured.join(' and ')} not measured: no evidence that the router was the limit`,
      });
    }
  }
  return { by, hostBusy: host.contended, reasons };
}

module.exports = { THRESHOLDS, generatorVerdict, backendVerdict, hostVerdict, withCrossCheck, limitOf };
