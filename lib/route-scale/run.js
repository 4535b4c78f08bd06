'use strict';
// npm run route-scale's work: per Route count a real-router lab with LAB_ROUTES=N and its phases
// (measure.js), then a lab with the dynamic configuration manager for the endpoint changes. The
// documents are written after each count; Ctrl-C takes the lab down and keeps what finished.
const fs = require('node:fs');
const path = require('node:path');
const { labDir: defaultLabDir, RESULTS_DIR, runId } = require('../core/paths');
const { requireTool } = require('../core/tools');
const { up, down } = require('../lab/index');
const { readLabState } = require('../lab/common/state');
const { requireSupport } = require('../lab/routers');
const { ROUTE_SCALE_ROUTER } = require('./options');
const { resolveTarget } = require('../matrix/target');
const { renderReport } = require('../report/index');
const { RESULTS_FILE } = require('../results-model/document');
const doc$ = require('../results-model/route-scale');
const { writeReports } = require('../report/route-scale');
const { measureCount, endpointPhase } = require('./measure');

/** The lab knobs of the lab for `count` Routes: the real router, with route-scale's hard-stop-after. */
function labEnv(env, opts, count, { configManager = false } = {}) {
  const router = env.LAB_ROUTER || ROUTE_SCALE_ROUTER;
  requireSupport(router, 'route-scale');
  return {
    ...env,
    LAB_ROUTER: router,
    LAB_ROUTES: String(count),
    LAB_ROUTER_HARD_STOP_AFTER: String(opts.hardStopAfterS),
    ...(opts.reloadIntervalS && { LAB_ROUTER_RELOAD_INTERVAL: String(opts.reloadIntervalS) }),
    LAB_ROUTER_DCM: configManager ? 'true' : 'false',
  };
}

/** Runs `work(state)` against a fresh lab of `env`, always taking it down afterwards. */
async function withOwnLab(env, { log, signal }, work) {
  const begin = Date.now();
  const state = await up({ env, log: () => {}, signal });
  log(
    `  lab up in ${((Date.now() - begin) / 1000).toFixed(1)} s (${state.scaleRoutes?.count ?? 0} further Routes)`,
  );
  try {
    return await work(state, (Date.now() - begin) / 1000);
  } finally {
    await down({ env, log: () => {} });
  }
}

/** The router every count runs, from the first lab's state. */
const routerOf = (state, opts) => ({
  openshiftRouter: `${state.router.openshiftRouter.branch} (${state.router.openshiftRouter.commit.slice(0, 12)})`,
  haproxy: state.router.haproxy.version,
  openssl: state.router.haproxy.openssl,
  threads: state.router.threads,
  reloadIntervalS: state.router.reloadIntervalS,
  hardStopAfterS: opts.hardStopAfterS,
});

/** Writes the documents; a matrix run in `dir` gets its report rendered again with the section. */
function save(dir, doc, log) {
  doc$.writeDocument(dir, doc);
  writeReports(dir, doc);
  if (!fs.existsSync(path.join(dir, RESULTS_FILE))) return;
  try {
    renderReport(dir);
  } catch (err) {
    log(`  report.html not updated with the route-scale section: ${err.message}`);
  }
}

/** Whether `count` gets the second lab, with the dynamic configuration manager (--dcm). */
const withConfigManager = (opts, count) =>
  opts.dcm === 'every' || (opts.dcm === 'smallest' && count === Math.min(...opts.routes));

/** One count: its lab and phases, then the lab with the configuration manager. */
async function oneCount(base, count, doc) {
  const { opts, env, log } = base;
  const countEnv = labEnv(env, opts, count);
  const entry = await withOwnLab(countEnv, base, async (state, upSeconds) => {
    doc.router ??= routerOf(state, opts);
    const { target } = resolveTarget({ target: 'lab' }, countEnv);
    const ctx = { ...base, env: countEnv, state, target, count };
    const measured = await measureCount(ctx);
    return { ...measured, lab: { upSeconds, admittedMs: state.scaleRoutes?.admittedMs ?? null } };
  });
  if (withConfigManager(opts, count)) {
    log('  endpoints: the same changes with the dynamic configuration manager on (a second lab)');
    const dcmEnv = labEnv(env, opts, count, { configManager: true });
    entry.endpoints.on = await withOwnLab(dcmEnv, base, (state) => endpointPhase({ ...base, state }));
  }
  return entry;
}

/**
 * Runs every count of opts.routes into `dir`. Resolves { dir, doc }; an error (Ctrl-C included)
 * carries the run as err.run after the documents were written with what finished.
 */
async function runRouteScale(opts, { env = process.env, log = console.log, signal } = {}) {
  const labDir = defaultLabDir(env);
  if (readLabState(labDir)) {
    throw new Error(
      `a lab is running in ${labDir}: route-scale starts its own, one per count; run 'npm run lab:down' first`,
    );
  }
  labEnv(env, opts, opts.routes[0]);
  const id = runId();
  const dir = path.resolve(opts.out || path.join(RESULTS_DIR, `route-scale-${id}`));
  if (fs.existsSync(path.join(dir, doc$.JSON_FILE))) {
    throw new Error(`${dir} already holds a route-scale run: choose another --out (nothing was overwritten)`);
  }
  const base = {
    opts,
    env,
    log,
    signal,
    dir,
    k6: requireTool('k6'),
    rawFile: (name) => path.join(dir, 'raw', name),
  };
  const doc = doc$.createDocument({ runId: id, opts, router: null });
  try {
    for (const [i, count] of opts.routes.entries()) {
      signal?.throwIfAborted();
      log(`\n[${i + 1}/${opts.routes.length}] ${count} Routes`);
      doc$.addCount(doc, await oneCount(base, count, doc));
      save(dir, doc, log);
    }
    doc$.finish(doc, { complete: true });
    save(dir, doc, log);
    return { dir, doc };
  } catch (err) {
    doc$.finish(doc, { complete: false });
    save(dir, doc, log);
    err.run = { dir, doc };
    throw err;
  }
}

module.exports = { runRouteScale, labEnv, withConfigManager };
