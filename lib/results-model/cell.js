'use strict';
// One cell's results.json entry from its k6 summaries: the k6 figures (./reduce.js) plus the CPU
// the runner read for k6, the router, the data-service instances, Redis and the host (null where
// nothing was watched, as in the cluster). Figures only: the verdicts are the document's
// (./document.js finalize).
const { reduceSummaries } = require('./reduce');

const round = (v, digits) => (v === null || v === undefined ? null : Number(v.toFixed(digits)));

function mean(list) {
  return list.length ? list.reduce((a, b) => a + b, 0) / list.length : null;
}

/** Average cores one watched process used across samples, or null when it was not watched. */
function averageCores(samples, name) {
  const list = samples.map((s) => s.cpu && s.cpu.cores[name]).filter((v) => typeof v === 'number');
  return list.length ? round(mean(list), 2) : null;
}

/**
 * cell: { name, termination, pageSize, connection }; samples: [{ summary, cpu?, k6AllowedCores?,
 * rawFile, dashboard? }]; instanceNames / redisNames: the processes watched besides k6 and the
 * router; maxVus: the VU ceiling k6 ran with; combine: how the summaries add up (./reduce.js):
 * 'sequential' samples of the matrix, or 'concurrent' runners in the cluster.
 */
function buildCellResult(
  cell,
  samples,
  { instanceNames = [], redisNames = [], maxVus, combine = 'sequential' } = {},
) {
  const { load, ...figures } = reduceSummaries(
    samples.map((s) => s.summary),
    { combine },
  );
  const processes = (names) => names.map((name) => ({ name, cpuCores: averageCores(samples, name) }));
  const hostBusy = mean(
    samples.map((s) => s.cpu && s.cpu.hostBusyFraction).filter((v) => typeof v === 'number'),
  );
  const dashboards = samples.map((s) => s.dashboard).filter(Boolean);
  return {
    name: cell.name,
    termination: cell.termination,
    pageSize: cell.pageSize,
    connection: cell.connection,
    ...figures,
    generator: {
      k6CpuCores: averageCores(samples, 'k6'),
      k6AllowedCores: samples[0].k6AllowedCores ?? null,
      ...load,
      maxVus: maxVus ?? null,
    },
    backend: { instances: processes(instanceNames), redis: processes(redisNames) },
    router: { cpuCores: averageCores(samples, 'router') },
    host: { busyFraction: round(hostBusy, 3), cores: samples[0].cpu ? samples[0].cpu.hostCores : null },
    raw: samples.map((s) => s.rawFile).filter(Boolean),
    ...(dashboards.length ? { dashboards } : {}),
  };
}

module.exports = { buildCellResult };
