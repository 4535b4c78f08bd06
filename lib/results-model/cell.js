'use strict';
// One cell's results.json entry from its k6 summaries: the k6 figures (./reduce.js) plus the CPU the
// runner read for each role and the host (null where nothing was watched, as in the cluster).
// Figures only: the verdicts are ./document.js finalize's.
const { reduceSummaries, sampleCounts } = require('./reduce');
const { costPerRole, spread } = require('./cost');
const { addStreams } = require('./streams');
const { valuesOf } = require('../../k6/lib/cells');

const round = (v, digits) => (v === null || v === undefined ? null : Number(v.toFixed(digits)));

function mean(list) {
  return list.length ? list.reduce((a, b) => a + b, 0) / list.length : null;
}

/** Average cores one watched process used across samples, or null when it was not watched. */
function averageCores(samples, name) {
  const list = samples.map((s) => s.cpu && s.cpu.cores[name]).filter((v) => typeof v === 'number');
  return list.length ? round(mean(list), 2) : null;
}

const roundSpread = (s) =>
  s && {
    min: round(s.min, 1),
    median: round(s.median, 1),
    max: round(s.max, 1),
    ...(s.samples ? { samples: s.samples.map((v) => round(v, 1)) } : {}),
  };

/** The watched process of a control plane apart from the router (the Gateway's istiod). */
const CONTROL_PLANE = 'control-plane';

/**
 * What a successful request (and a full TLS handshake) cost each role in CPU, per sample, as
 * { perRequestUs, perHandshakeUs } spreads; null for a role nothing measured: the CPU seconds
 * each process spent over the sample ÷ the sample's successful requests (handshakes).
 */
function costOf(samples, roles) {
  const measured = samples.filter((s) => s.cpu && s.cpu.cpuSeconds && s.summary);
  const perSample = measured.map((s) => ({ ...sampleCounts(s.summary), cpuSeconds: s.cpu.cpuSeconds }));
  const costs = costPerRole(perSample, roles);
  // Every generator role is present, null where another tool made the load.
  const cost = { k6: null, wrk: null, haload: null };
  for (const [role, { perRequestUs, perHandshakeUs }] of Object.entries(costs)) {
    cost[role] = perRequestUs
      ? { perRequestUs: roundSpread(perRequestUs), perHandshakeUs: roundSpread(perHandshakeUs) }
      : null;
  }
  return cost;
}

/** µs of `cores` per request in each run that measured it (`samples`; one run in older results). */
function perRequestOfRuns(crossCheck, cores) {
  const runs = crossCheck.samples ?? [crossCheck];
  return runs.filter((r) => r.rps > 0 && typeof r[cores] === 'number').map((r) => (r[cores] / r.rps) * 1e6);
}

/** A spread of per-run figures with each run's own value, as costPerRole gives k6's; null when none. */
function spreadOfRuns(values) {
  const measured = spread(values);
  return measured && roundSpread({ ...measured, samples: values });
}

/**
 * The cell's figures with the cross-check beside them: its tool's cost per request, and the
 * router's while that tool drove it (the router's figure should not depend on who drives it),
 * each a spread over the tool's runs.
 */
function addCrossCheck(figures, crossCheck) {
  if (!crossCheck) return figures;
  const toolUs = crossCheck.skipped ? null : spreadOfRuns(perRequestOfRuns(crossCheck, 'cpuCores'));
  // A tool that was the cell's own generator keeps the cost it measured as such.
  const cost = toolUs
    ? { perRequestUs: toolUs, perHandshakeUs: null }
    : (figures.cost?.[crossCheck.tool] ?? null);
  const withCost = { ...figures, cost: { ...figures.cost, [crossCheck.tool]: cost } };
  if (crossCheck.skipped) return { ...withCost, crossCheck };
  const routerUs = spreadOfRuns(perRequestOfRuns(crossCheck, 'routerCpuCores'));
  const routerPerRequestUs = routerUs ? Math.round(routerUs.median) : null;
  return { ...withCost, crossCheck: { ...crossCheck, routerPerRequestUs, routerUs } };
}

/**
 * The router's own counters over a cell (lib/load/router-counters.js, one summary per sample):
 * the median across samples of each figure, the largest queue and connection count; null where
 * no sample read them (a cluster, or a router without a runtime API).
 */
function routerCountersOf(samples) {
  const read = samples.map((s) => s.counters).filter((c) => c && c.readings > 0);
  if (!read.length) return null;
  const median = (pick) => {
    const s = spread(read.map(pick));
    return s ? round(s.median, 1) : null;
  };
  const max = (pick) => spread(read.map(pick))?.max ?? null;
  return {
    readings: read.reduce((sum, c) => sum + c.readings, 0),
    fullHandshakesPerSec: median((c) => c.fullHandshakesPerSec),
    backendFullHandshakesPerSec: median((c) => c.backendFullHandshakesPerSec),
    tlsSessionsPerSec: median((c) => c.tlsSessionsPerSec),
    reusePct: median((c) => c.reusePct),
    sessionsPerSec: median((c) => c.sessionsPerSec),
    currentConnections: {
      median: median((c) => c.currentConnections.median),
      max: max((c) => c.currentConnections.max),
    },
    queued: { median: median((c) => c.queued.median), max: max((c) => c.queued.max) },
    streams: addStreams(read.map((c) => c.streams)),
    handshakes: handshakesOf(read),
  };
}

/**
 * The frontends' TLS handshakes summed over the samples that counted them (a reload within a
 * sample leaves it out): { full, resumed, samples }, or null where none did.
 */
function handshakesOf(read) {
  const counted = read.map((c) => c.handshakes).filter(Boolean);
  if (!counted.length) return null;
  const sum = (key) => counted.reduce((total, h) => total + h[key], 0);
  return { full: sum('full'), resumed: sum('resumed'), samples: counted.length };
}

/**
 * The service's TLS sessions over the samples that read them (passthrough close cells:
 * lib/load/service-sessions.js), summed: { new, resumed, reusePct, samples, error? (the samples
 * left out) }, { error } where none could, or null where none tried.
 */
function serviceSessionsOf(samples) {
  const tried = samples.map((s) => s.counters?.serviceSessions).filter(Boolean);
  if (!tried.length) return null;
  const read = tried.filter((t) => !t.error);
  if (!read.length) return { error: tried[0].error };
  const sum = (key) => read.reduce((total, t) => total + t[key], 0);
  const [fresh, resumed] = [sum('new'), sum('resumed')];
  return {
    new: fresh,
    resumed,
    reusePct: fresh + resumed ? round((100 * resumed) / (fresh + resumed), 1) : null,
    // A sample whose reading failed (an instance restarted, or did not answer) is left out.
    samples: read.length,
    ...(read.length < tried.length && {
      error: `${tried.length - read.length} sample(s) not read: ${tried.find((t) => t.error).error}`,
    }),
  };
}

/**
 * Why no sample read the router's counters, where some tried (lib/load/router-counters.js: a
 * summary with no readings names the last error): the reason, or null when any sample read them
 * or none tried (a cluster).
 */
function routerCountersError(samples) {
  const tried = samples.map((s) => s.counters).filter(Boolean);
  if (!tried.length || tried.some((c) => c.readings > 0)) return null;
  const failed = tried.reduce((sum, c) => sum + (c.failedReadings || 0), 0);
  const last = tried.findLast((c) => c.error);
  if (!failed) return `no reading in ${tried.length} sample(s): each ended before the first`;
  return `all ${failed} reading(s) in ${tried.length} sample(s) failed${last ? `, the last: ${last.error}` : ''}`;
}

/**
 * The router's figures from a cluster's Prometheus over the cell's samples (the median rates of
 * responses and connections, the median and largest open sessions), or null where no sample read them.
 */
function clusterRouterOf(samples) {
  const readSamples = samples.filter((s) => s.cluster && s.cluster.router);
  if (!readSamples.length) return null;
  const read = readSamples.map((s) => s.cluster.router);
  const median = (key) => {
    const s = spread(read.map((r) => r[key]));
    return s ? round(s.median, 0) : null;
  };
  const sessions = read.map((r) => r.currentSessions).filter(Boolean);
  return {
    samples: read.length,
    windows: readSamples.map((s) => s.cluster.window),
    responsesPerSec: median('responsesPerSec'),
    connectionsPerSec: median('connectionsPerSec'),
    currentSessions: sessions.length
      ? {
          median: round(spread(sessions.map((x) => x.median)).median, 1),
          max: spread(sessions.map((x) => x.max)).max,
        }
      : null,
  };
}

/** What a cluster cell could not read from Prometheus (every distinct error), or null. */
function clusterMetricsError(samples) {
  const errors = [...new Set(samples.flatMap((s) => (s.cluster ? s.cluster.errors : [])))];
  return errors.length ? errors.join('; ') : null;
}

/**
 * cell: { name, termination, pageSize, connection, tlsSession }; samples: [{ summary, cpu?,
 * counters?, allowedCores?, rawFile, dashboard? }] from one generator (the summaries' meta names
 * it: k6, or wrk for resumed close cells); instanceNames / redisNames: the processes watched
 * besides the generator and the router; maxVus and executor: k6's load model, where the summaries'
 * meta does not name it; combine: how the summaries add up (./reduce.js): 'sequential' samples
 * of the matrix, or 'concurrent' runners in the cluster; tlsGroup: the key-exchange group a full
 * handshake with the cell's route negotiated (every close TLS cell, resumed ones too: their
 * sessions began with such a handshake), or null.
 */
function buildCellResult(
  cell,
  samples,
  {
    instanceNames = [],
    redisNames = [],
    maxVus,
    executor = null,
    combine = 'sequential',
    tlsGroup = null,
  } = {},
) {
  const { load, ...figures } = reduceSummaries(
    samples.map((s) => s.summary),
    { combine },
  );
  const meta = samples[0].summary.meta || {};
  const tool = meta.generator || 'k6';
  const processes = (names) => names.map((name) => ({ name, cpuCores: averageCores(samples, name) }));
  const hostBusy = mean(
    samples.map((s) => s.cpu && s.cpu.hostBusyFraction).filter((v) => typeof v === 'number'),
  );
  const dashboards = samples.map((s) => s.dashboard).filter(Boolean);
  const tlsSessions = serviceSessionsOf(samples);
  const controlPlane = samples.some((x) => typeof x.cpu?.cpuSeconds?.[CONTROL_PLANE] === 'number');
  return {
    name: cell.name,
    ...valuesOf(cell),
    ...figures,
    tlsGroup,
    generator: {
      tool,
      executor: meta.executor ?? executor,
      cpuCores: averageCores(samples, tool),
      allowedCores: samples[0].allowedCores ?? null,
      ...load,
      maxVus: tool === 'k6' ? (maxVus ?? null) : (meta.maxVus ?? null),
    },
    backend: {
      instances: processes(instanceNames),
      redis: processes(redisNames),
      ...(tlsSessions && { tlsSessions }),
    },
    router: {
      cpuCores: averageCores(samples, 'router'),
      ...(controlPlane ? { controlPlaneCpuCores: averageCores(samples, CONTROL_PLANE) } : {}),
      counters: routerCountersOf(samples),
      countersError: routerCountersError(samples),
      ...(samples.some((s) => s.cluster)
        ? { prometheus: clusterRouterOf(samples), metricsError: clusterMetricsError(samples) }
        : {}),
    },
    host: { busyFraction: round(hostBusy, 3), cores: samples[0].cpu ? samples[0].cpu.hostCores : null },
    cost: costOf(samples, {
      router: ['router'],
      service: instanceNames,
      redis: redisNames,
      [tool]: [tool],
      ...(controlPlane ? { controlPlane: [CONTROL_PLANE] } : {}),
    }),
    raw: samples.map((s) => s.rawFile).filter(Boolean),
    ...(dashboards.length ? { dashboards } : {}),
  };
}

module.exports = { buildCellResult, addCrossCheck, CONTROL_PLANE };
