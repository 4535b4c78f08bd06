'use strict';
// Scenario (a lab with pods): a data-service pod deleted under a steady load through every
// termination, as a node drain or `oc delete pod` does: its readiness, drain delay and the
// Deployment's new pod must lose no request. The promise is zero failed requests.
const { setTimeout: sleep } = require('node:timers/promises');
const names = require('../core/manifest-names');
const { labClient, listPods, deletePod, waitReplaced, isReady } = require('../lab/node/pod-faults');
const { steadyPagesEach, underLoad } = require('./load');
const { checkScenario, observedCase, lossReasons } = require('./scenario');

const LEAD_MS = 1500;
const SELECTOR = `app.kubernetes.io/name=${names.APP}`;
/** Besides the pod's drain delay: its shutdown, its replacement's start, the router's next reload. */
const SETTLE_MS = 8000;

/** The pods' DRAIN_DELAY_MS, from the ConfigMap their container reads (envFrom), in ms. */
async function drainDelayMs(admin, pod) {
  for (const from of pod.spec.containers[0].envFrom || []) {
    if (!from.configMapRef) continue;
    const map = await admin.get(
      `/api/v1/namespaces/${pod.metadata.namespace}/configmaps/${from.configMapRef.name}`,
    );
    if (map.data?.DRAIN_DELAY_MS) return Number(map.data.DRAIN_DELAY_MS);
  }
  // Unset: at most the grace period.
  return 1000 * (pod.spec.terminationGracePeriodSeconds ?? 30);
}

/** Deletes one of the `ready` pods after LEAD_MS; resolves what happened, timed from `start`. */
async function deleteOnePod(ctx, admin, ready, { start, signal }) {
  const injected = [];
  const note = (what) => {
    injected.push({ atMs: Date.now() - start, what });
    ctx.log(`    ${what}`);
  };
  await sleep(LEAD_MS, undefined, { signal });
  const [victim] = ready;
  const uid = await deletePod(admin, victim.metadata.name);
  note(`pod ${victim.metadata.name} deleted (its grace period: preStop, drain, shutdown)`);
  const back = await waitReplaced(admin, { selector: SELECTOR, count: ready.length, goneUid: uid, signal });
  note(
    `${back.length} pods ready again, ${victim.metadata.name} gone: ${back.map((p) => p.metadata.name).join(', ')}`,
  );
  return { injected, replacedMs: Date.now() - start };
}

module.exports = checkScenario({
  name: 'pod-delete',
  title: 'A data-service pod deleted under load',
  promise: 'zero failed requests',
  describe: (opts) =>
    `one data-service pod deleted (kubectl delete pod: its preStop, drain delay and shutdown run) while ` +
    `${opts.rate} req/s go through each of ${opts.terminations.join(', ')} at once, keep-alive; the ` +
    'Deployment starts its replacement',
  async inject(ctx) {
    const { opts } = ctx;
    const admin = labClient(ctx.state());
    const ready = (await listPods(admin, SELECTOR)).filter(isReady);
    // With one pod, its deletion fails requests by design: nothing to test.
    if (ready.length < 2)
      return { cases: [], skipped: `${ready.length} ready data-service pod(s): it needs 2 (LAB_REPLICAS)` };
    const drainMs = await drainDelayMs(admin, ready[0]);
    const reloadMs = 1000 * (ctx.state().router.reloadIntervalS ?? 0);
    const seconds = Math.ceil((LEAD_MS + drainMs + reloadMs + SETTLE_MS) / 1000);
    ctx.log(`  ${opts.rate} req/s per termination for ${seconds} s (the pods' drain delay: ${drainMs} ms)`);
    const start = Date.now();
    const { load: loads, fault } = await underLoad({
      signal: ctx.signal,
      load: (signal) =>
        steadyPagesEach(ctx, {
          terminations: opts.terminations,
          rate: opts.rate,
          durationSeconds: seconds,
          prefix: 'pod-delete',
          signal,
        }),
      fault: (signal) => deleteOnePod(ctx, admin, ready, { start, signal }),
    });
    // The load must have outlasted the pod's replacement, or its end went unobserved.
    const covered = fault.replacedMs <= seconds * 1000;
    return {
      cases: loads.map((load, i) =>
        observedCase({
          name: `${opts.terminations[i]}:keepalive`,
          injected: fault.injected,
          load,
          errors: load.errorKinds,
          recoveryMs: fault.replacedMs,
          figures: { replacedMs: fault.replacedMs, loadMs: seconds * 1000, coveredByLoad: covered },
        }),
      ),
    };
  },
  verdict(observation) {
    if (observation.skipped) return { pass: true, reasons: [], notes: [`skipped: ${observation.skipped}`] };
    const reasons = [
      ...lossReasons(observation.cases),
      ...observation.cases
        .filter((c) => !c.figures.coveredByLoad)
        .map(
          (c) => `${c.name}: the load ended before the new pod was ready: the replacement was not observed`,
        ),
    ];
    return { pass: reasons.length === 0, reasons, notes: [] };
  },
});
