'use strict';
// Route churn under load: Routes created and deleted through the API at a set rate while the
// steady load runs through the existing Routes, against the same load with no churn. What the
// router does with it: how often it reloads, what the load lost, and its p99.
const { setTimeout: sleep } = require('node:timers/promises');
const { adminClient } = require('../lab/kube/control-plane');
const { routesPath } = require('../lab/kube/routes-api');
const { admissionProbeRoute } = require('../lab/openshift-router/admission');
const { reloadCounters } = require('../lab/openshift-router/router-metrics');
const { watchHaproxyDuring } = require('./haproxy-watch');
const { underSteadyLoad, LEAD_MS } = require('./steady');

/**
 * Every 1/`ratePerS` s creates a Route and deletes the one created the tick before, for `seconds`.
 * Resolves { created, seconds } (the churn's own length).
 */
async function churnRoutes(client, { ratePerS, seconds, signal }) {
  const tag = Date.now().toString(36);
  const begin = Date.now();
  let previous = null;
  let created = 0;
  try {
    while (Date.now() - begin < seconds * 1000) {
      const name = `churn-${tag}-${created + 1}`;
      await client.post(routesPath(), admissionProbeRoute(name));
      if (previous) await client.delete(`${routesPath()}/${previous}`);
      previous = name;
      created++;
      const due = begin + (created * 1000) / ratePerS;
      await sleep(Math.max(0, due - Date.now()), undefined, { signal });
    }
  } finally {
    if (previous) await client.delete(`${routesPath()}/${previous}`).catch(() => {});
  }
  return { created, seconds: (Date.now() - begin) / 1000 };
}

/** One case: `ratePerS` Routes a second (0: the baseline, no churn) for opts.churnSeconds. */
async function churnCase(ctx, ratePerS) {
  const { state, opts } = ctx;
  const client = adminClient(state.labDir);
  const before = await reloadCounters(state.router);
  // Ended LEAD_MS after the churn; bounded at twice that, so a churn a busy API server drags out
  // is still under load (the bound was the estimate itself, met as the end came).
  const loadSeconds = 2 * (opts.churnSeconds + Math.ceil((2 * LEAD_MS) / 1000));
  const { result: run, haproxy } = await watchHaproxyDuring(state.router.pid, () =>
    underSteadyLoad(ctx, { seconds: loadSeconds, prefix: `churn-${ctx.count}-${ratePerS}` }, (signal) =>
      ratePerS
        ? churnRoutes(client, { ratePerS, seconds: opts.churnSeconds, signal })
        : sleep(opts.churnSeconds * 1000, { created: 0, seconds: opts.churnSeconds }, { signal }),
    ),
  );
  const after = await reloadCounters(state.router);
  const reloads = after.reloads - before.reloads;
  return {
    ratePerS,
    routesCreated: run.outcome.created,
    seconds: Number(run.outcome.seconds.toFixed(1)),
    reloads,
    reloadsPerSec: Number((reloads / run.outcome.seconds).toFixed(2)),
    loads: run.loads,
    haproxy: { peakProcesses: haproxy.peakProcesses, peakTotalMb: haproxy.peakTotalMb },
    host: run.host,
  };
}

/** The baseline, then each of opts.churnRates. Resolves { cases: [baseline, ...] }. */
async function measureChurn(ctx) {
  const cases = [];
  for (const ratePerS of [0, ...ctx.opts.churnRates]) {
    ctx.signal?.throwIfAborted();
    const c = await churnCase(ctx, ratePerS);
    const lost = c.loads.reduce((sum, l) => sum + l.failed, 0);
    ctx.log(
      `    ${ratePerS ? `${ratePerS} Route(s)/s` : 'no churn'}: ${c.reloads} reload(s) in ${c.seconds} s, ` +
        `${lost} request(s) failed, p99 ${c.loads.map((l) => `${l.termination} ${l.p99} ms`).join(', ')}`,
    );
    cases.push(c);
  }
  return { cases };
}

module.exports = { measureChurn, churnRoutes };
