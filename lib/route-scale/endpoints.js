'use strict';
// Endpoint changes at a Route count: one instance withdrawn and published again through the API
// while requests poll the http Route. The dynamic configuration manager (LAB_ROUTER_DCM) may apply
// them without a reload; the reload counter and the router's log say whether it did.
const fs = require('node:fs');
const { adminClient } = require('../lab/kube/control-plane');
const { measureEndpointChange } = require('../lab/admission');
const { reloadCounters } = require('../lab/router-metrics');
const { logFile } = require('../lab/pids');
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

/** Resolves { changes, reloads, removedMs, addedMs (spreads), requests, failed } or { skipped }. */
async function measureEndpointChanges(state, { changes, signal, log = () => {} }) {
  if (state.instances.length < 2) {
    return { skipped: 'one instance only (LAB_REPLICAS=1): no endpoint to withdraw while traffic goes on' };
  }
  const client = adminClient(state.labDir);
  const log$ = logFile(state.labDir, 'router');
  const logFrom = fs.statSync(log$).size;
  const before = await reloadCounters(state.router);
  const runs = [];
  for (let i = 1; i <= changes; i++) {
    // After the last reload's interval, so that each change is applied as soon as it can be.
    await waitQuiet(state, { signal });
    const run = await measureEndpointChange(state, client, { signal });
    log(
      `    change ${i}/${changes}: traffic left ${run.instance} after ${run.removedMs} ms, came back after ${run.addedMs} ms`,
    );
    runs.push(run);
  }
  const after = await reloadCounters(state.router);
  return {
    ...fallbacks(fs.readFileSync(log$).subarray(logFrom).toString('utf8')),
    configManager: Boolean(state.router.configManager),
    changes,
    reloads: after.reloads - before.reloads,
    removedMs: spread(runs.map((r) => r.removedMs)),
    addedMs: spread(runs.map((r) => r.addedMs)),
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    failed: runs.reduce((sum, r) => sum + r.failed, 0),
  };
}

module.exports = { measureEndpointChanges, fallbacks };
