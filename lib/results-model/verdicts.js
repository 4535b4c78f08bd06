'use strict';
// Who limited a cell, from positive evidence only (a role at the cores it may use, or its own counters
// showing it), never a role by elimination; otherwise a shared host, the offered load, or unknown.
// Pure: ./document.js calls limitOf once per cell when it finalizes, and renderers only format it.
const { vusExhausted } = require('../../k6/lib/generator');
const { tlsEndsAt } = require('../../k6/lib/cells');

const THRESHOLDS = {
  // A process using this share of the cores it may run on has no headroom left.
  cpuNearFull: 0.85,
  // The host counts as full above this busy share of all its cores; other work took it when it
  // used this share of the cores or more.
  hostBusy: 0.9,
  otherWorkShare: 0.25,
  // A Node.js instance runs JavaScript on one core.
  instanceNearFullCore: 0.85,
  // Service time counts as risen at this multiple of the lightest cell's, and at least this much.
  serviceTimeRatio: 2,
  serviceTimeMinRiseMs: 0.2,
  // A resumed cell must show at least this share of resumed TLS sessions at the router, a full
  // one at most this share, or it did not measure what its name claims.
  resumedMinReusePct: 90,
  fullMaxReusePct: 10,
  // Full handshakes count as the router's main work at this share of its CPU.
  handshakeShare: 0.5,
  // k6 and wrk disagree when their rates are this share of wrk's apart (the cross-check's flag).
  crossCheckGap: 0.1,
};

const fmt = (v, digits = 2) => Number(v).toFixed(digits);
const measured = (v) => typeof v === 'number';
const sumOf = (list) => list.reduce((a, b) => a + (b || 0), 0);

/**
 * The load generator at its own limit. m: { tool ('k6' or 'wrk'), cpuCores, allowedCores,
 * droppedIterations, executor, vusActiveMax (max of k6's `vus`), maxVus, busyVus (average VUs
 * busy, Little's law) }
 */
function generatorVerdict(m, t = THRESHOLDS) {
  const reasons = [];
  if (typeof m.cpuCores === 'number' && m.allowedCores && m.cpuCores >= t.cpuNearFull * m.allowedCores) {
    reasons.push(`${m.tool || 'k6'} used ${fmt(m.cpuCores)} of the ${m.allowedCores} cores it may use`);
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
 * The router at its own limit: it used most of the cores its threads can use (its threads, at
 * most the cores it may run on). m: { routerCpuCores, threads, allowedCores }
 */
function routerVerdict(m, t = THRESHOLDS) {
  const usable = Math.min(m.threads || Infinity, m.allowedCores || Infinity);
  if (typeof m.routerCpuCores !== 'number' || !Number.isFinite(usable))
    return { saturated: false, reasons: [] };
  if (m.routerCpuCores < t.cpuNearFull * usable) return { saturated: false, reasons: [] };
  return {
    saturated: true,
    reasons: [
      `the router used ${fmt(m.routerCpuCores)} of the ${usable} core(s) its ${m.threads} thread(s) can use`,
    ],
  };
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

/** The host's busy cores that the lab's processes did not use. */
const busyElsewhere = (m) => Math.max(0, m.hostBusyFraction * m.hostCores - (m.labCpuCores || 0));

/**
 * The host itself: busy, but not with the processes of the lab (other work on the machine).
 * m: { hostBusyFraction, hostCores, labCpuCores (k6 + router + instances + redis) }
 */
function hostVerdict(m, t = THRESHOLDS) {
  if (m.hostBusyFraction === null || m.hostBusyFraction === undefined || !m.hostCores) {
    return { contended: false, reasons: [], otherCpuCores: null };
  }
  const otherCpuCores = busyElsewhere(m);
  const reasons = [];
  if (m.hostBusyFraction >= t.hostBusy && otherCpuCores >= t.otherWorkShare * m.hostCores) {
    reasons.push(
      `the host's ${m.hostCores} cores were ${Math.round(m.hostBusyFraction * 100)} % busy and ` +
        `${fmt(otherCpuCores)} cores went to processes outside the test: the figures are lower and noisier than the router can do`,
    );
  }
  return { contended: reasons.length > 0, reasons, otherCpuCores: Number(otherCpuCores.toFixed(2)) };
}

/**
 * Adds the cross-check's evidence: its tool (wrk, haload) getting clearly more through the same cell
 * than the cell's generator `by` (k6, or wrk in resumed cells). Closed model only: with --rate the
 * runner skips the cross-check (cross-check.js crossCheckSkip).
 */
function withCrossCheck(generator, crossCheck, by = 'k6') {
  if (!crossCheck || !crossCheck.rps || !crossCheck.flagged || crossCheck.gap <= 0) return generator;
  // gap is the generator's shortfall as a share of the tool's rate: (tool − generator) ÷ tool.
  const generatorRps = crossCheck.generatorRps ?? crossCheck.rps * (1 - crossCheck.gap);
  const tool = crossCheck.tool ?? 'wrk';
  return {
    ...generator,
    saturated: true,
    reasons: [
      ...generator.reasons,
      `${tool} got ${Math.round(crossCheck.rps)} req/s through the same cell, ${fmt(crossCheck.rps / generatorRps, 1)}× ` +
        `${by}'s ${Math.round(generatorRps)} (${by} fell ${Math.round(crossCheck.gap * 100)} % short of ${tool})`,
    ],
  };
}

/**
 * Each role's CPU in a cell, as cores: { k6 (or wrk), router, 'data service', redis } (measured
 * ones only).
 */
function roleShares(cell) {
  const shares = {
    [cell.generator.tool]: cell.generator.cpuCores,
    router: cell.router.cpuCores,
    'control plane': cell.router.controlPlaneCpuCores ?? null,
    'data service': cell.backend.instances.some((i) => measured(i.cpuCores))
      ? sumOf(cell.backend.instances.map((i) => i.cpuCores))
      : null,
    redis: cell.backend.redis.some((r) => measured(r.cpuCores))
      ? sumOf(cell.backend.redis.map((r) => r.cpuCores))
      : null,
  };
  return Object.fromEntries(Object.entries(shares).filter(([, v]) => measured(v)));
}

/** A cluster cell: its router and data service ran elsewhere, read from Prometheus. */
const remote = (cell) => 'metricsError' in cell.router;

/** The roles' cores on the machine that ran the cell's generator: all of them in the lab. */
function localShares(cell) {
  const shares = roleShares(cell);
  return remote(cell) ? { [cell.generator.tool]: shares[cell.generator.tool] ?? 0 } : shares;
}

/**
 * The cores of a cell's host that went to processes outside the test (its busy share of all its
 * cores, less every role's), or null where the host was not measured.
 */
function coresOutside(cell) {
  const { busyFraction, cores } = cell.host;
  if (!measured(busyFraction) || !cores) return null;
  const other = busyElsewhere({
    hostBusyFraction: busyFraction,
    hostCores: cores,
    labCpuCores: sumOf(Object.values(localShares(cell))),
  });
  return Number(other.toFixed(2));
}

/**
 * No role at its own limit, so what set the figure: the roles shared a full host (each one's
 * share, the largest named), or the host had idle cores and the offered load set it.
 * m: { shares: { role: cores }, hostBusyFraction, hostCores, load: '32 VUs' | '500 req/s' }
 */
function sharedVerdict(m, t = THRESHOLDS) {
  const list = Object.entries(m.shares)
    .sort((a, b) => b[1] - a[1])
    .map(([role, cores]) => `${role} ${fmt(cores)}`)
    .join(', ');
  if (measured(m.hostBusyFraction) && m.hostBusyFraction >= t.hostBusy) {
    const [largest] = Object.entries(m.shares).sort((a, b) => b[1] - a[1]);
    return {
      by: 'shared',
      reasons: [
        `no role was at its own limit, but the host's ${m.hostCores} cores were ${Math.round(m.hostBusyFraction * 100)} % busy: ` +
          `the roles shared them (cores: ${list})` +
          (largest ? `; ${largest[0]} took the largest share` : ''),
      ],
    };
  }
  const idle = measured(m.hostBusyFraction) ? ' and the host had idle cores' : '';
  return {
    by: 'load',
    reasons: [
      `no role was at its own limit${idle} (cores: ${list}): the offered load (${m.load}) set this figure`,
    ],
  };
}

/**
 * A resumed claim's share after each client's first handshake: each client (VU) begins each sample
 * with a full one, having no session yet, and a short sample on a busy host has few more (32 VUs,
 * 446 handshakes: 45 full read as 89.9 %). counted: { full, resumed, samples }. { pct, text }, or
 * null for another claim, or where no first was counted or nothing came after them.
 */
function afterFirsts(cell, counted) {
  if (cell.tlsSession !== 'resumed') return null;
  const clients = (cell.generator?.vusMax ?? 0) * (counted.samples ?? 1);
  const firsts = Math.min(counted.full, clients);
  const later = counted.full + counted.resumed - firsts;
  if (!firsts || later <= 0) return null;
  const pct = Number(((100 * counted.resumed) / later).toFixed(1));
  return { pct, text: `${pct} % of those after each client's first` };
}

/**
 * Whether a reuse share meets the cell's claim, the service's or the router's: { holds, later
 * (afterFirsts, which a resumed claim is judged on where counted), expected: the bound in words }.
 * counted: { full, resumed, samples } or null (results.json before the router's counts).
 */
function claimHolds(cell, reusePct, counted, t) {
  const later = counted ? afterFirsts(cell, counted) : null;
  return cell.tlsSession === 'resumed'
    ? {
        holds: (later?.pct ?? reusePct) >= t.resumedMinReusePct,
        later,
        expected: `at least ${t.resumedMinReusePct} %`,
      }
    : { holds: reusePct <= t.fullMaxReusePct, later, expected: `at most ${t.fullMaxReusePct} %` };
}

/**
 * A session claim where the service ends the TLS (passthrough): checked on the instances' own
 * count of new and resumed sessions (backend.tlsSessions), the router passing the TLS on unopened.
 */
function serviceSessionVerdict(cell, base, t) {
  const sessions = cell.backend?.tlsSessions;
  const where = `${cell.termination} TLS ends at the service`;
  // No share: none read (error), none counted, or none tried.
  if (typeof sessions?.reusePct !== 'number') {
    const why = sessions?.error ?? (sessions ? 'no TLS session counted' : 'its sessions were not read');
    return { ...base, holds: null, text: `not checked: ${where}, and ${why}` };
  }
  const { reusePct } = sessions;
  const counts = { full: sessions.new, resumed: sessions.resumed, samples: sessions.samples };
  const { holds, later, expected } = claimHolds(cell, reusePct, counts, t);
  const counted =
    `the service resumed ${reusePct} % of TLS sessions (${sessions.new} new, ${sessions.resumed} resumed` +
    `${later ? `; ${later.text}` : ''}${sessions.error ? `; ${sessions.error}` : ''})`;
  const text = holds
    ? `${counted}: ${cell.tlsSession} as claimed`
    : `NOT ${cell.tlsSession} as claimed: ${counted}, where ${expected} was expected`;
  return { ...base, reusePct, holds, text };
}

/**
 * Whether a close TLS cell measured the sessions its name claims, from the router's own counters,
 * and what its full handshakes cost the router: null for a cell without a TLS session kind. Else
 * { claim, reusePct, fullHandshakesPerSec, holds, text, handshakeCores, handshakeShare }: holds is
 * true or false where the router ends the TLS and its counters were read, null otherwise (text
 * says why); handshakeCores is the floor's share of the router's CPU: full handshakes/s × the
 * floor µs (openssl speed), and handshakeShare that over the cores the router used. Both are lower
 * bounds: a real handshake costs the router more than the floor's signature and key exchange.
 * cell: { termination, tlsSession, router: { cpuCores, counters, countersError } }; floor: { floorUs } or null.
 */
function sessionVerdict(cell, floor = null, t = THRESHOLDS) {
  if (!cell.tlsSession) return null;
  const counters = cell.router.counters;
  const base = {
    claim: cell.tlsSession,
    reusePct: null,
    fullHandshakesPerSec: null,
    handshakeCores: null,
    handshakeShare: null,
  };
  if (tlsEndsAt(cell.termination) === 'service') return serviceSessionVerdict(cell, base, t);
  if (!counters || typeof counters.reusePct !== 'number') {
    const why = cell.router.countersError;
    return {
      ...base,
      holds: null,
      text: `not checked: the router's TLS counters were not read${why ? ` (${why})` : ''}`,
    };
  }
  const { reusePct, fullHandshakesPerSec } = counters;
  const { holds, later, expected } = claimHolds(cell, reusePct, counters.handshakes, t);
  const share = `the router resumed ${reusePct} % of TLS sessions (${fullHandshakesPerSec} full handshakes/s${later ? `; ${later.text}` : ''})`;
  const text = holds
    ? `${share}: ${cell.tlsSession} as claimed`
    : `NOT ${cell.tlsSession} as claimed: ${share}, where ${expected} was expected`;
  let handshakeCores = null;
  let handshakeShare = null;
  if (floor && floor.floorUs > 0 && typeof fullHandshakesPerSec === 'number') {
    handshakeCores = Number(((fullHandshakesPerSec * floor.floorUs) / 1e6).toFixed(3));
    if (cell.router.cpuCores > 0) handshakeShare = Number((handshakeCores / cell.router.cpuCores).toFixed(3));
  }
  return { ...base, reusePct, fullHandshakesPerSec, holds, text, handshakeCores, handshakeShare };
}

/**
 * What a router at its limit spent its CPU on, in words: the share its full handshakes take at the
 * floor's cost, a lower bound since a real handshake costs more than the floor's cryptography.
 * Re-encrypt's handshakes to the service are named but left out of the share: the floor is timed
 * for the server's side of a handshake.
 */
function handshakeReason(session, counters) {
  const share = Math.round(session.handshakeShare * 100);
  const taken = `${session.fullHandshakesPerSec} full handshakes/s take at least ${share} % of its CPU (at the floor's cost; a real handshake costs more)`;
  const backend = counters?.backendFullHandshakesPerSec;
  const toService =
    backend > 0 ? `; its ${backend} full handshakes/s to the service are not in that share` : '';
  return session.handshakeShare >= THRESHOLDS.handshakeShare
    ? `limited by TLS handshakes: ${taken}${toService}`
    : `not mainly by TLS handshakes: ${taken}${toService}; HTTP and connection work, and the handshakes' cost above the floor, the rest`;
}

/**
 * One cell's limit: { by, hostBusy, reasons: [{ role, text }] }. `by` joins the roles at their
 * own limit ('router', 'generator', 'backend', e.g. 'router+generator'); with none: 'host' (other
 * work on the machine filled it), 'shared' (a full host shared by the roles), 'load' (idle cores:
 * the offered load set the figure) or 'unknown' (the roles' CPU was not measured, as in a cluster).
 * Context: `baseline`, the run's lightest cell (lowest service p50) for the backend's service-time
 * evidence; `vus` and `rate`, the run's load model (the cell's generator names its executor);
 * `router`: { threads, allowedCores } of the router.
 */
function limitOf(cell, { baseline = null, vus, rate, router = {} } = {}) {
  const g = cell.generator;
  const generator = withCrossCheck(
    generatorVerdict({
      tool: g.tool,
      cpuCores: g.cpuCores,
      allowedCores: g.allowedCores,
      droppedIterations: g.droppedIterations,
      executor: g.executor,
      vusActiveMax: g.vusMax,
      maxVus: g.maxVus,
      busyVus: g.busyVus,
    }),
    cell.crossCheck,
    g.tool,
  );
  const routerLimit = routerVerdict({ routerCpuCores: cell.router.cpuCores, ...router });
  // What the router spent its cores on, where its counters say: full handshakes, or the rest.
  const session = cell.tlsEvidence;
  if (routerLimit.saturated && session && typeof session.handshakeShare === 'number') {
    routerLimit.reasons.push(handshakeReason(session, cell.router.counters));
  }
  const backend = backendVerdict({
    instances: cell.backend.instances.filter((i) => measured(i.cpuCores)),
    serviceP50Ms: cell.serviceTimeMs ? cell.serviceTimeMs.p50 : null,
    baselineServiceP50Ms: baseline ? baseline.serviceTimeMs.p50 : null,
    baselineCell: baseline && baseline.name !== cell.name ? baseline.name : null,
  });
  const shares = roleShares(cell);
  const host = hostVerdict({
    hostBusyFraction: cell.host.busyFraction,
    hostCores: cell.host.cores,
    labCpuCores: sumOf(Object.values(localShares(cell))),
  });
  const reasons = [
    ...routerLimit.reasons.map((text) => ({ role: 'router', text })),
    ...generator.reasons.map((text) => ({ role: 'generator', text })),
    ...backend.reasons.map((text) => ({ role: 'backend', text })),
    ...host.reasons.map((text) => ({ role: 'host', text })),
  ];
  const limits = [
    routerLimit.saturated && 'router',
    generator.saturated && 'generator',
    backend.saturated && 'backend',
  ].filter(Boolean);
  if (limits.length) return { by: limits.join('+'), hostBusy: host.contended, reasons };
  const unmeasured = [];
  if (!measured(g.cpuCores)) unmeasured.push(g.tool);
  if (!measured(cell.router.cpuCores)) unmeasured.push('the router');
  if (!cell.backend.instances.some((i) => measured(i.cpuCores))) unmeasured.push('the data service');
  if (unmeasured.length) {
    const who = new Intl.ListFormat('en', { type: 'conjunction' }).format(unmeasured);
    const why = cell.router.metricsError ? ` (${cell.router.metricsError})` : '';
    reasons.push({
      role: 'unmeasured',
      text: `the CPU of ${who} was not measured${why}: no evidence of what limited this cell`,
    });
    return { by: 'unknown', hostBusy: host.contended, reasons };
  }
  if (host.contended) return { by: 'host', hostBusy: true, reasons };
  const shared = sharedVerdict({
    shares,
    // A cluster's roles do not share this machine: only the offered load is left.
    hostBusyFraction: remote(cell) ? null : cell.host.busyFraction,
    hostCores: cell.host.cores,
    load: g.tool !== 'k6' ? `${g.vusMax} ${g.tool} connections` : rate ? `${rate} req/s` : `${vus} VUs`,
  });
  reasons.push(...shared.reasons.map((text) => ({ role: shared.by, text })));
  return { by: shared.by, hostBusy: host.contended, reasons };
}

module.exports = {
  THRESHOLDS,
  generatorVerdict,
  routerVerdict,
  backendVerdict,
  hostVerdict,
  sharedVerdict,
  withCrossCheck,
  roleShares,
  coresOutside,
  sessionVerdict,
  limitOf,
};
