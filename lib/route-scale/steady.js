'use strict';
// The steady load each route-scale phase runs beside its changes: k6 at a fixed rate through the
// http, edge and passthrough Routes at once, keep-alive (passthrough connections are the ones that
// hold an old HAProxy until hard-stop-after), with the host's and the router's CPU meanwhile.
const { setTimeout: sleep } = require('node:timers/promises');
const { steadyPagesEach, underLoad } = require('../reliability/load');
const { startCpuMonitor } = require('../load/cpu-monitor');

const LOAD_TERMINATIONS = ['http', 'edge', 'passthrough'];
/** Time for k6 to reach its rate before the first change, and to keep it after the last. */
const LEAD_MS = 1500;

/** One termination's load in the figures route-scale keeps. */
const loadFigures = (termination, load) => ({
  termination,
  requests: load.requests,
  failed: load.failed,
  errorKinds: load.errorKinds,
  p50: load.p50,
  p99: load.p99,
  max: load.max,
});

/**
 * Runs `change(signal)` under the steady load (ctx.opts.rate per termination), LEAD_MS without
 * changes either side of it: the load ends LEAD_MS after the change, or after `seconds`, which
 * bounds it. Resolves { loads, outcome (what `change` resolved), host: { busyFraction, cores,
 * routerCores } }.
 */
async function underSteadyLoad(ctx, { seconds, prefix }, change) {
  const cpu = startCpuMonitor({ router: { tree: ctx.state.router.pid } });
  let result;
  try {
    // A change's length varies (a reload waits out the interval, an old HAProxy may live to
    // hard-stop-after): the load ends once the change is done, not after its worst case.
    result = await underLoad({
      signal: ctx.signal,
      load: (signal, end) =>
        steadyPagesEach(ctx, {
          terminations: LOAD_TERMINATIONS,
          rate: ctx.opts.rate,
          durationSeconds: seconds,
          prefix,
          signal,
          end,
        }),
      fault: async (signal) => {
        await sleep(LEAD_MS, undefined, { signal });
        return change(signal);
      },
      endAfterMs: LEAD_MS,
    });
  } finally {
    cpu.stop();
  }
  const usage = cpu.result();
  return {
    loads: result.load.map((load, i) => loadFigures(LOAD_TERMINATIONS[i], load)),
    outcome: result.fault,
    host: {
      busyFraction: usage.hostBusyFraction === null ? null : Number(usage.hostBusyFraction.toFixed(3)),
      cores: usage.hostCores,
      routerCores: usage.cores.router === null ? null : Number(usage.cores.router.toFixed(3)),
    },
  };
}

module.exports = { underSteadyLoad, LOAD_TERMINATIONS, LEAD_MS };
