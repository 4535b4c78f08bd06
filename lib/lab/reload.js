'use strict';
// lab:reload: a new configuration serving on the running lab's router, asked of its backend (the
// template router renders and reloads HAProxy as reload-haproxy does; the real router is changed
// through the API, as on a cluster).
const { resolveLabOptions } = require('./common/options');
const { readLabState } = require('./common/state');
const { backendOf } = require('./routers');
const { unsupportedOn } = require('./common/router-kinds');

/**
 * Reloads the running lab's router. `overrides` ({ maxconn }) changes router settings for this and
 * later reloads, `exclude` drains instances out of the configuration, `restarted` publishes them
 * back as new pods, `handover: false` leaves the listening sockets behind (for comparison only):
 * each as the backend supports it (lib/lab/routers.js), which refuses what it cannot do, saying
 * why. Resolves { pid, oldPids, ms, reloads }.
 */
async function reload({ env = process.env, log = () => {}, signal, ...change } = {}) {
  const { labDir } = resolveLabOptions(env);
  const state = readLabState(labDir);
  if (!state) throw new Error(`no lab is running in ${labDir}: run 'npm run lab:up' first`);
  const refused = change.exclude?.length && unsupportedOn(state.router, 'reload-exclude');
  if (refused) throw new Error(`lab:reload --exclude: ${refused}`);
  return backendOf(state.router).reload({ ...state, labDir }, { ...change, signal, log });
}

module.exports = { reload };
