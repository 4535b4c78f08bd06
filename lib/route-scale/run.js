'use strict';
// npm run route-scale's work: per Route count a real-router lab with LAB_ROUTES=N and its phases
// (measure.js), then a lab with the dynamic configuration manager for the endpoint changes. The
// documents are written after each count; Ctrl-C takes the lab down and keeps what finished.
const fs = require('node:fs');
const path = require('node:path');
const { labDir: defaultLabDir, runDir, runId } = require('../core/paths');
const { PORT_KNOBS } = require('../lab/common/options');
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

/**
 * Starts the lab of `env` now: { env, ready } (ready resolves { state, upSeconds }). Awaited
 * later, as a lab started beside another count's phases is (--next-lab beside).
 */
function startLab(env, { signal }) {
  const begin = Date.now();
  const ready = up({ env, log: () => {}, signal }).then((state) => ({
    state,
    upSeconds: (Date.now() - begin) / 1000,
  }));
  // A failed start stops what it started (lab:up does); the failure counts once awaited.
  ready.catch(() => {});
  return { env, ready };
}

/** Takes the lab of `started` (startLab) down, whatever became of its start. */
async function endLab(started) {
  await started.ready.catch(() => {});
  await down({ env: started.env, log: () => {} });
}

/** Runs `work(state, upSeconds)` against the lab `started` (startLab), always taking it down afterwards. */
async function withOwnLab(started, { log }, work) {
  try {
    const { state, upSeconds } = await started.ready;
    log(`  lab up in ${upSeconds.toFixed(1)} s (${state.scaleRoutes?.count ?? 0} further Routes)`);
    return await work(state, upSeconds);
  } finally {
    await endLab(started);
  }
}

/**
 * The lab of the count after `count` in opts.routes, when it starts beside this count's last
 * phases: in a folder of the run's LAB_DIR, on free ports (this count's lab holds LAB_*_PORT).
 */
function nextLabEnv(env, opts, count) {
  const next = opts.routes[opts.routes.indexOf(count) + 1];
  if (opts.nextLab !== 'beside' || next === undefined) return null;
  const ports = Object.fromEntries(PORT_KNOBS.map((knob) => [knob, '0']));
  return { ...labEnv(env, opts, next), ...ports, LAB_DIR: besideLabDir(defaultLabDir(env), next) };
}

/** Where the lab of `count` runs when it starts beside the count before it. */
const besideLabDir = (labDir, count) => path.join(labDir, `route-scale-${count}`);

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

/**
 * One count: its lab (`started`, startLab) and phases, then the lab with the configuration
 * manager. Resolves { entry, next }: `next` is the next count's lab when it started beside the
 * phases after the reloads (nextLabEnv), for the caller to use; a failure takes it down here.
 */
async function oneCount(base, count, doc, started) {
  const { opts, env, log } = base;
  let next = null;
  try {
    const entry = await withOwnLab(started, base, async (state, upSeconds) => {
      doc.router ??= routerOf(state, opts);
      const { target } = resolveTarget({ target: 'lab' }, started.env);
      const besideEnv = nextLabEnv(env, opts, count);
      const startNext = besideEnv
        ? () => {
            log(`  the next count's lab starts now, beside these phases (${besideEnv.LAB_DIR})`);
            next = startLab(besideEnv, base);
          }
        : null;
      const ctx = { ...base, env: started.env, state, target, count, startNext };
      const measured = await measureCount(ctx);
      return { ...measured, lab: { upSeconds, admittedMs: state.scaleRoutes?.admittedMs ?? null } };
    });
    if (withConfigManager(opts, count)) {
      log('  endpoints: the same changes with the dynamic configuration manager on (a second lab)');
      const dcm = startLab(labEnv(env, opts, count, { configManager: true }), base);
      entry.endpoints.on = await withOwnLab(dcm, base, (state) => endpointPhase({ ...base, state }));
    }
    return { entry, next };
  } catch (err) {
    if (next) await endLab(next);
    throw err;
  }
}

/** A lab running where this run would start one: in LAB_DIR, or in a folder of it (--next-lab beside). */
function refuseRunningLab(env, opts) {
  const labDir = defaultLabDir(env);
  for (const dir of [labDir, ...opts.routes.map((count) => besideLabDir(labDir, count))]) {
    if (readLabState(dir)) {
      const how = dir === labDir ? "'npm run lab:down'" : `'LAB_DIR=${dir} npm run lab:down'`;
      throw new Error(
        `a lab is running in ${dir}: route-scale starts its own, one per count; run ${how} first`,
      );
    }
  }
}

/**
 * Runs every count of opts.routes into `dir`. Resolves { dir, doc }; an error (Ctrl-C included)
 * carries the run as err.run after the documents were written with what finished.
 */
async function runRouteScale(opts, { env = process.env, log = console.log, signal } = {}) {
  refuseRunningLab(env, opts);
  labEnv(env, opts, opts.routes[0]);
  const id = runId();
  const dir = runDir(opts.out, `route-scale-${id}`, env);
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
  // The lab started beside the count before, until its own count takes it.
  let next = null;
  try {
    for (const [i, count] of opts.routes.entries()) {
      signal?.throwIfAborted();
      log(`\n[${i + 1}/${opts.routes.length}] ${count} Routes`);
      const started = next || startLab(labEnv(env, opts, count), base);
      next = null;
      const counted = await oneCount(base, count, doc, started);
      next = counted.next;
      doc$.addCount(doc, counted.entry);
      save(dir, doc, log);
    }
    doc$.finish(doc, { complete: true });
    save(dir, doc, log);
    return { dir, doc };
  } catch (err) {
    if (next) await endLab(next);
    doc$.finish(doc, { complete: false });
    save(dir, doc, log);
    err.run = { dir, doc };
    throw err;
  }
}

module.exports = { runRouteScale, labEnv, withConfigManager, nextLabEnv, besideLabDir };
