'use strict';
// Scenario: endpoint changes as the OpenShift router sees them: lab:rollout --via-reload takes each
// instance out by a reload, restarts it and puts it back by a reload, while a steady load runs
// through every termination. The promise is zero failed requests.
const { setTimeout: sleep } = require('node:timers/promises');
const { rollout, startInstanceAgain } = require('../lab/faults/rolling-restart');
const { reload } = require('../lab/reload');
const { listRecords, processState } = require('../lab/common/pids');
const { writeLabState } = require('../lab/common/state');
const { steadyPagesEach, underLoad } = require('./load');
const { checkScenario, observedCase, lossReasons } = require('./scenario');

const LEAD_MS = 1500;
/** Besides its drain delay, what one instance's turn takes: two reloads, a start, checks. */
const PER_INSTANCE_MS = 4000;

/**
 * After an interrupted rollout: starts every instance that is not running again and reloads the
 * router with all of them, so that the lab is as it was (an instance may have been stopped, or
 * left out of the configuration, when Ctrl-C came).
 */
async function repairInstances(ctx) {
  const state = ctx.state();
  const records = listRecords(state.labDir);
  for (const instance of state.instances) {
    const record = records.find((r) => r.name === instance.name);
    if (record && processState(record) === 'running') continue;
    ctx.log(`    starting ${instance.name} again (the rollout was interrupted)`);
    const started = await startInstanceAgain(state, instance);
    instance.pid = started.pid;
  }
  writeLabState(state.labDir, { ...ctx.state(), instances: state.instances });
  await reload({ env: ctx.env });
}

module.exports = checkScenario({
  name: 'endpoints',
  title: 'Endpoint changes through reloads',
  promise: 'zero failed requests',
  describe: (opts) =>
    `lab:rollout --via-reload (each instance taken out of the router by a reload, restarted, put back by ` +
    `a reload) under ${opts.rate} req/s through each of ${opts.terminations.join(', ')} at once, keep-alive`,
  async inject(ctx) {
    const { opts } = ctx;
    const state = ctx.state();
    // The real router applies each endpoint change at its next reload: two per instance.
    const reloadsMs = 2 * 1000 * (state.router.reloadIntervalS ?? 0);
    const expectMs = LEAD_MS + state.instances.length * (state.drainDelayMs + PER_INSTANCE_MS + reloadsMs);
    // The load ends LEAD_MS after the rollout (`end` below): its length only bounds a slow
    // rollout, so it is twice the estimate. A busy host (other work on both cores) took longer
    // than the estimate, and the load ended before the rollout did.
    const seconds = Math.ceil((2 * expectMs + LEAD_MS) / 1000);
    ctx.log(
      `  ${state.instances.length} instance(s), ${opts.rate} req/s per termination, ending ${LEAD_MS} ms after the rollout (at most ${seconds} s)`,
    );
    const start = Date.now();
    const injected = [];
    let outcome;
    try {
      outcome = await underLoad({
        signal: ctx.signal,
        load: async (signal, end) => {
          const loads = await steadyPagesEach(ctx, {
            terminations: opts.terminations,
            rate: opts.rate,
            durationSeconds: seconds,
            prefix: 'endpoints',
            signal,
            end,
          });
          return { loads, endedMs: Date.now() - start };
        },
        fault: async (signal) => {
          await sleep(LEAD_MS, undefined, { signal });
          await rollout({
            env: ctx.env,
            signal,
            viaReload: true,
            log: (line) => {
              injected.push({ atMs: Date.now() - start, what: line.replace(/^[•\s]+/, '') });
              ctx.log(`    ${line.trim()}`);
            },
          });
          return Date.now() - start;
        },
        // The estimate above is a bound: the load ends LEAD_MS after the rollout.
        endAfterMs: LEAD_MS,
      });
    } catch (err) {
      // The load is stopped by now; the lab gets back every instance the rollout had taken out.
      await repairInstances(ctx);
      throw err;
    }
    const {
      load: { loads: results, endedMs: loadMs },
      fault: rolledMs,
    } = outcome;
    return {
      cases: results.map((load, i) =>
        observedCase({
          name: `${opts.terminations[i]}:keepalive`,
          injected,
          load,
          errors: load.errorKinds,
          figures: { rolloutEndedMs: rolledMs, loadEndedMs: loadMs, coveredByLoad: rolledMs <= loadMs },
        }),
      ),
    };
  },
  verdict(observation) {
    const reasons = lossReasons(observation.cases);
    const notes = observation.cases
      .filter((c) => !c.figures.coveredByLoad)
      .map((c) => `${c.name}: the load ended before the rollout: its end was not observed`);
    return { pass: reasons.length === 0, reasons, notes };
  },
});
