'use strict';
// One Route count's phases against its lab (see options.js for what each measures). Each phase
// logs as it goes; the figures are those route-scale.json keeps.
const path = require('node:path');
const { measureAdmission } = require('../lab/openshift-router/admission');
const { spread } = require('../results-model/cost');
const { reloadCycles, parseMs } = require('./reloads');
const { measureCost } = require('./cost');
const { measureChurn } = require('./churn');
const { measureEndpointChanges } = require('./endpoints');
const { underSteadyLoad, LEAD_MS } = require('./steady');

/** Admission of opts.admissions new Routes: { samples, admitted, firstOk } (ms). */
async function admissionPhase(ctx) {
  const { samples, admitted, firstOk } = await measureAdmission(ctx.state, {
    samples: ctx.opts.admissions,
    endpointChange: false,
    log: (line) => ctx.log(`  ${line}`),
    signal: ctx.signal,
  });
  return { samples, admitted, firstOk };
}

/** opts.reloads reloads under the steady load, with HAProxy's parse time of the configuration. */
async function reloadPhase(ctx) {
  const { state, opts } = ctx;
  const parse = await parseMs(state, { signal: ctx.signal });
  ctx.log(`    HAProxy parses the configuration in ${parse} ms (haproxy -c)`);
  // Each reload waits out the reload interval first; the last old process may live to hard-stop-after.
  const perReloadS = state.router.reloadIntervalS + 2.5;
  const seconds = Math.ceil((2 * LEAD_MS) / 1000 + opts.reloads * perReloadS + opts.hardStopAfterS + 3);
  const run = await underSteadyLoad(ctx, { seconds, prefix: `reloads-${ctx.count}` }, (signal) =>
    reloadCycles(state, {
      count: opts.reloads,
      hardStopAfterS: opts.hardStopAfterS,
      signal,
      log: ctx.log,
    }),
  );
  const { reloads, haproxy } = run.outcome;
  const of = (key) => spread(reloads.map((r) => r[key]));
  return {
    parseMs: parse,
    samples: reloads,
    renderMs: of('renderMs'),
    reloadMs: of('reloadMs'),
    changeToServingMs: of('changeToServingMs'),
    haproxy,
    loads: run.loads,
    host: run.host,
  };
}

/** Every phase at the running lab of ctx.env. Resolves the count's entry (without verdicts). */
async function measureCount(ctx) {
  const { count } = ctx;
  const entry = { routes: count };
  const phases = [
    ['admission', 'new Routes to Admitted and first 200', () => admissionPhase(ctx)],
    ['reloads', `${ctx.opts.reloads} reload(s) under load`, () => reloadPhase(ctx)],
    [
      'cost',
      "the router's µs per request (the matrix)",
      () => measureCost({ ...ctx, dir: path.join(ctx.dir, `routes-${count}`) }),
    ],
    ['churn', 'Route churn under load', () => measureChurn(ctx)],
  ];
  for (const [key, what, phase] of phases) {
    ctx.signal?.throwIfAborted();
    ctx.log(`  ${key}: ${what}`);
    entry[key] = await phase();
    // Admission, reloads and parse are timed alone; the next count's lab may start beside the rest.
    if (key === 'reloads') ctx.startNext?.();
  }
  ctx.log('  endpoints: endpoint changes, dynamic configuration manager off');
  entry.endpoints = { off: await endpointPhase(ctx), on: null };
  return entry;
}

/** The endpoint changes against the lab of ctx. */
function endpointPhase(ctx) {
  return measureEndpointChanges(ctx.state, {
    changes: ctx.opts.endpointChanges,
    signal: ctx.signal,
    log: ctx.log,
  });
}

module.exports = { measureCount, endpointPhase };
