'use strict';
// Endpoint changes at a Route count: one instance withdrawn and published again through the API,
// as a new pod or the same one, while requests poll the http Route. The dynamic configuration
// manager (LAB_ROUTER_DCM) may apply them without a reload; the reload counter and the log say.
const fs = require('node:fs');
const { adminClient } = require('../lab/kube/control-plane');
const { measureEndpointChange, NOT_HAPPENED } = require('../lab/kube/admission-probes');
const { endpointsApi, timeoutOf } = require('../lab/openshift-router/admission');
const { reloadCounters } = require('../lab/openshift-router/router-metrics');
const { logFile } = require('../lab/common/pids');
const { spread } = require('../results-model/cost');
const { waitQuiet } = require('./reloads');

/**
 * The changes the configuration manager could not apply through the runtime API and left to a
 * reload, from the router's log: { fallbacks, fallbackReason } (pure).
 */
function fallbacks(logText) {
  const lines = logText.split('\n').filter((l) => l.includes('ConfigManager could not'));
  const reason = lines.length ? /"error"="([^"]+)"/.exec(lines[0]) : null;
  return { fallbacks: lines.length, fallbackReason: reason ? reason[1] : null };
}

/**
 * `changes` withdrawals and publications of one kind (`newPod`: a rollout's new pod, else the same
 * pod, as after a failed readiness probe): resolves { changes, reloads, notApplied: [{ change,
 * error }], removedMs, addedMs (spreads of the changes applied), requests, failed, fallbacks }.
 */
async function measureKind(state, client, { changes, newPod, signal, log }) {
  const log$ = logFile(state.labDir, 'router');
  const logFrom = fs.statSync(log$).size;
  const before = await reloadCounters(state.router);
  const runs = [];
  const notApplied = [];
  for (let i = 1; i <= changes; i++) {
    await waitQuiet(state, { signal });
    try {
      const run = await measureEndpointChange(state, endpointsApi(client, { newPod }), {
        timeoutMs: timeoutOf(state),
        signal,
      });
      log(
        `    change ${i}/${changes}: traffic left ${run.instance} after ${run.removedMs} ms, came back after ${run.addedMs} ms`,
      );
      runs.push(run);
    } catch (err) {
      if (err.code !== NOT_HAPPENED) throw err;
      // A change the router never applied is a finding, not the end of the run: said (and undone
      // by measureEndpointChange).
      log(`    change ${i}/${changes}: ${err.message}`);
      notApplied.push({ change: i, error: err.message });
    }
  }
  const after = await reloadCounters(state.router);
  return {
    ...fallbacks(fs.readFileSync(log$).subarray(logFrom).toString('utf8')),
    changes,
    reloads: after.reloads - before.reloads,
    notApplied,
    removedMs: spread(runs.map((r) => r.removedMs)),
    addedMs: spread(runs.map((r) => r.addedMs)),
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    failed: runs.reduce((sum, r) => sum + r.failed, 0),
  };
}

/**
 * Both kinds of endpoint change against the lab of `state`: resolves { configManager, rollout,
 * readiness } or { skipped }. The rollout comes first: a pod that returns under its old name can
 * leave the configuration manager's record stale, and later changes unapplied (docs/figures.md#the-configuration-manager-and-a-pod-that-returns).
 */
async function measureEndpointChanges(state, { changes, signal, log = () => {} }) {
  if (state.instances.length < 2) {
    return { skipped: 'one instance only (LAB_REPLICAS=1): no endpoint to withdraw while traffic goes on' };
  }
  const client = adminClient(state.labDir);
  const kind = (newPod) => measureKind(state, client, { changes, newPod, signal, log });
  log('    a rollout: the instance returns as a new pod');
  const rollout = await kind(true);
  log('    readiness: the instance returns as the same pod');
  const readiness = await kind(false);
  return { configManager: Boolean(state.router.configManager), rollout, readiness };
}

module.exports = { measureEndpointChanges, fallbacks };
