'use strict';
// The matrix run: every cell (warm-up, samples, cool-down, optional wrk cross-check) against the
// resolved target, each cell's figures added to the results document as it finishes.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { setTimeout: pause } = require('node:timers/promises');
const { runDir, runId } = require('../core/paths');
const { requireTool, findTool } = require('../core/tools');
const { resolveTarget, withClusterApi, requireRoutes, describeTls, watchedProcesses } = require('./target');
const { openMonitoring, addClusterFigures } = require('./cluster-figures');
const { recordedOptions } = require('./options');
const { planCells, estimateSeconds } = require('./plan');
const { tlsEndsAt } = require('../../k6/lib/cells');
const { runK6Sample } = require('../load/k6');
const { buildCellResult, addCrossCheck } = require('../results-model/cell');
const {
  RESULTS_FILE,
  createRun,
  addCell,
  addSkipped,
  finalize,
  writeResults,
} = require('../results-model/document');
const { runWrk, runWrkCell } = require('../load/wrk');
const { runHaload } = require('../load/haload');
const { runHaloadCell } = require('../load/haload-cell');
const { h2Skip, serviceAlpn } = require('./protocol');
const { measureCostCurve } = require('./cost-curve');
const { startRouterCounters } = require('../load/router-counters');
const { withServiceSessions } = require('../load/service-sessions');
const {
  wrkTarget,
  crossCheckPlan,
  compareTools,
  crossCheckSkip,
  protocolSkip,
  closeSkip,
  poolToolRuns,
  sameToolSkip,
  haloadTarget,
  NO_HALOAD,
} = require('./cross-check');
const { describeEnvironment } = require('./environment');
const { needsFloor, measureHandshakeFloor, negotiateRoute } = require('./handshake-floor');
const { createProgress } = require('./progress');
const { requireReachable } = require('./reachable');
const { describeCell } = require('../report/console');

function safeName(cellName) {
  return cellName.replace(/:/g, '-');
}

// wrk's threads: one per core, at most two (the lab's generator shares the machine).
const WRK_THREADS = Math.max(1, Math.min(2, os.availableParallelism()));

/**
 * Where wrk reaches each resumed cell, or haload where wrk cannot (passthrough: wrk sends no SNI of
 * its own), or why neither can here: { runnable: [{ cell, where: { tool, url, host, sni? } }],
 * skipped: [{ name, reason }] }. k6 cells pass through with no `where`.
 */
async function placeCells(cells, { target, opts, wrk, haload = null }) {
  const runnable = [];
  const skipped = [];
  for (const cell of cells) {
    const noH2 = h2Skip(cell, target);
    if (noH2) {
      skipped.push({ name: cell.name, reason: noH2 });
      continue;
    }
    if (cell.tlsSession !== 'resumed') {
      runnable.push({ cell });
      continue;
    }
    if (opts.rate) {
      skipped.push({
        name: cell.name,
        reason: `open model (--rate ${opts.rate}): resumed sessions need wrk, which has no open model`,
      });
      continue;
    }
    if (!wrk) {
      throw new Error(
        `${cell.name}: resumed TLS sessions need wrk (k6 cannot resume): run 'npm run setup -- --for lab', or pass --tls-session full`,
      );
    }
    const route = target.routes[cell.termination];
    const where = await wrkTarget(cell, route, target);
    if (!where.skip) runnable.push({ cell, where: { tool: 'wrk', ...where } });
    else if (haload)
      runnable.push({ cell, where: { tool: 'haload', ...(await haloadTarget(cell, route, target)) } });
    else skipped.push({ name: cell.name, reason: `${where.skip}; haload could, but ${NO_HALOAD}` });
  }
  return { runnable, skipped };
}

/** The cells to run and where: the tools, the target, and each cell placed with its generator. */
async function planRun(opts, { env, log }) {
  const k6 = requireTool('k6');
  const resolved = resolveTarget(opts, env);
  const target = await withClusterApi(resolved.target, opts, env);
  const { cells, skipped: noRoute } = requireRoutes(target, planCells(opts));
  await requireReachable(
    target,
    cells.map((c) => c.termination),
  );
  const wrk = findTool('wrk');
  if (opts.crossCheck && !wrk) throw new Error(`--cross-check needs wrk: run 'npm run setup -- --for lab'`);
  const haload = findTool('haload');
  const { runnable, skipped } = await placeCells(cells, { target, opts, wrk, haload });
  const monitoring = openMonitoring(opts, target);
  // What the router meets behind a re-encrypt route when it offers h2: the service's ALPN answer.
  const h2Reencrypt = runnable.some(({ cell }) => cell.termination === 'reencrypt' && cell.protocol === 'h2');
  const alpn = h2Reencrypt ? await serviceAlpn(resolved.lab) : null;
  return {
    opts,
    log,
    k6,
    wrk,
    haload,
    target,
    serviceAlpn: alpn,
    lab: resolved.lab,
    runnable,
    skipped: [...noRoute, ...skipped],
    monitoring,
  };
}

/** The results directory (refused if it holds a run already), with its raw/ folder. */
function newRunDir(opts, id) {
  const dir = runDir(opts.out, id);
  if (fs.existsSync(path.join(dir, RESULTS_FILE))) {
    throw new Error(
      `${dir} already holds the results of a run: choose another --out (nothing was overwritten)`,
    );
  }
  fs.mkdirSync(path.join(dir, 'raw'), { recursive: true });
  return dir;
}

/** The run's document, started: options, handshake floor, environment, TLS; skipped cells in it. */
async function openRun(plan, { signal }) {
  const { opts, log, k6, target, lab, runnable, skipped } = plan;
  const id = runId();
  const dir = newRunDir(opts, id);
  const options = recordedOptions(opts);
  // One full handshake with the edge route: the group the run's TLS cells pay for, and the floor's.
  const seen = target.routes.edge ? await negotiatedOrNull(target, 'edge', log) : null;
  const cells = runnable.map((r) => r.cell);
  const handshakeFloor = needsFloor(cells) ? await floorOrNull({ target, lab, log, signal, seen }) : null;
  const doc = createRun({
    id,
    options,
    handshakeFloor,
    environment: describeEnvironment({
      k6,
      lab,
      opts,
      target,
      monitoring: plan.monitoring,
      negotiatedGroup: seen ? seen.group : null,
    }),
    tls: describeTls(target),
  });
  for (const skip of skipped) {
    addSkipped(doc, skip);
    log(`matrix: ${skip.name} not run: ${skip.reason}`);
  }
  // The router's own counters beside the CPU, where its backend reads them (the lab).
  const counters = target.counters ? { start: () => startRouterCounters(target.counters) } : null;
  const { serviceSessions } = target;
  return {
    ...plan,
    ...watchedProcesses(lab),
    dir,
    doc,
    maxVus: options.maxVus,
    counters,
    serviceSessions,
    signal,
  };
}

/**
 * What a recorded sample of `cell` reads beside its load: the router's counters and, where the
 * service ends the TLS (passthrough close cells), the service's TLS sessions.
 */
const countersFor = (run, cell) =>
  run.counters && run.serviceSessions && tlsEndsAt(cell.termination) === 'service' && cell.tlsSession
    ? withServiceSessions(run.counters, run.serviceSessions)
    : run.counters;

/**
 * One run of a cell's generator: k6, or wrk where the TLS sessions are resumed. A recorded
 * sample watches the processes and reads the router's counters; a warm-up does neither.
 */
function runSample(run, { cell, where }, { durationSeconds, summaryPath, dashboard = null, recorded }) {
  const { opts, target, signal } = run;
  const common = {
    cell,
    durationSeconds,
    summaryPath,
    watch: recorded ? run.watch : {},
    counters: recorded ? countersFor(run, cell) : null,
    cpus: target.k6Cpus,
    signal,
  };
  if (where?.tool === 'haload') {
    return runHaloadCell({
      ...common,
      haload: run.haload,
      url: where.url,
      host: where.host,
      sni: where.sni,
      resume: cell.tlsSession !== 'full',
      protocol: cell.protocol ?? 'h1',
      users: opts.vus,
      threads: WRK_THREADS,
      target: target.mode,
    });
  }
  if (where) {
    return runWrkCell({
      ...common,
      wrk: run.wrk,
      url: where.url,
      host: where.host,
      connections: opts.vus,
      threads: WRK_THREADS,
      target: target.mode,
    });
  }
  return runK6Sample({ ...common, k6: run.k6, opts, target, dashboard });
}

/** The warm-up (its figures thrown away), then the recorded samples of one cell. */
async function sampleCell(run, placed, report) {
  const { opts, dir, signal } = run;
  const name = safeName(placed.cell.name);
  if (opts.warmup > 0) {
    report('warm-up');
    // wrk writes its figures to a file even when nobody keeps them.
    const scratch = path.join(dir, 'raw', `${name}-warmup.json`);
    await runSample(run, placed, {
      durationSeconds: opts.warmup,
      summaryPath: placed.where ? scratch : null,
      recorded: false,
    });
    fs.rmSync(scratch, { force: true });
  }
  const samples = [];
  for (let s = 1; s <= opts.samples; s++) {
    signal?.throwIfAborted();
    report(`sample ${s}/${opts.samples}`);
    const rawFile = path.join('raw', `${name}-${s}.json`);
    const dashboard = opts.dashboard && !placed.where ? path.join('dashboards', `${name}-${s}.html`) : null;
    const startMs = Date.now();
    const sample = await runSample(run, placed, {
      durationSeconds: opts.duration,
      summaryPath: path.join(dir, rawFile),
      dashboard: dashboard && path.join(dir, dashboard),
      recorded: true,
    });
    samples.push({ ...sample, rawFile, dashboard, window: { startMs, endMs: Date.now() } });
  }
  return samples;
}

/** One cell's figures, with its TLS group and, where asked and possible, the cross-check. */
async function measureCell(run, placed, report) {
  const { opts, target, log } = run;
  const { cell } = placed;
  const samples = await sampleCell(run, placed, report);
  let { instanceNames } = run;
  if (target.mode === 'cluster') {
    if (run.monitoring) report('reading Prometheus');
    instanceNames = await addClusterFigures(run.monitoring, cell, samples, {
      durationSeconds: opts.duration,
      signal: run.signal,
    });
    const errors = [...new Set(samples.flatMap((s) => s.cluster.errors))];
    for (const error of errors) log(`matrix: ${cell.name}: ${error}`);
  }
  // The group a full handshake through the route negotiates, for every close TLS cell: a full
  // cell pays it per request; a resumed cell's sessions were set up by such a handshake.
  const tlsGroup = cell.tlsSession
    ? ((await negotiatedOrNull(target, cell.termination, log)) || {}).group || null
    : null;
  const { redisNames, maxVus } = run;
  const built = buildCellResult(cell, samples, { instanceNames, redisNames, maxVus, tlsGroup });
  const h2Backend = cell.termination === 'reencrypt' && cell.protocol === 'h2';
  const withAlpn = h2Backend ? { ...built, serviceAlpn: run.serviceAlpn } : built;
  const figures = opts.costCurve
    ? {
        ...withAlpn,
        costCurve: await measureCostCurve(run, cell, {
          threads: WRK_THREADS,
          report,
          generatorRps: built.okRps,
        }),
      }
    : withAlpn;
  if (!opts.crossCheck) return addCrossCheck(figures, null);
  const sameTool = sameToolSkip(placed.where?.tool, cell);
  if (sameTool) return addCrossCheck(figures, { tool: 'haload', skipped: sameTool });
  const skip = crossCheckSkip(opts) || protocolSkip(cell, figures.protocols);
  if (skip) return addCrossCheck(figures, { tool: 'wrk', skipped: skip });
  report('cross-check');
  return addCrossCheck(figures, await crossCheck(run, cell, figures.okRps));
}

/** Every cell in turn; after each, what finished so far is written as a valid (incomplete) document. */
async function runCells(run, progress) {
  const { opts, runnable, doc, dir, signal } = run;
  for (const [index, placed] of runnable.entries()) {
    signal?.throwIfAborted();
    addCell(doc, await measureCell(run, placed, (what) => progress.update(index, placed.cell.name, what)));
    const sofar = finalize(doc, { complete: false });
    writeResults(dir, sofar);
    progress.cellDone(index, describeCell(sofar.cells[index]));
    if (opts.cooldown > 0 && index < runnable.length - 1) {
      progress.update(index + 1, runnable[index + 1].cell.name, 'cool-down');
      await pause(opts.cooldown * 1000, undefined, { signal });
    }
  }
}

/**
 * Runs the matrix. Returns { dir, results }. `signal` (AbortSignal) stops it between or inside
 * samples; what finished is still written, marked incomplete, and the AbortError carries it as
 * `run` ({ dir, results }) so the command can still render the report.
 */
async function runMatrix(
  opts,
  { env = process.env, log = console.log, progressStream = process.stderr, signal } = {},
) {
  const run = await openRun(await planRun(opts, { env, log }), { signal });
  const { dir, doc, target } = run;
  const count = run.runnable.length;
  log(
    `matrix: ${count} cell(s) against the ${target.mode}, ${opts.samples} sample(s) of ${opts.duration}s, ` +
      `${opts.rate ? `${opts.rate} req/s` : `${opts.vus} VUs`}; results in ${dir}`,
  );
  const progress = createProgress({
    total: count,
    estimate: estimateSeconds(count, opts),
    stream: progressStream,
  });
  let complete = false;
  let results;
  try {
    await runCells(run, progress);
    complete = true;
  } catch (err) {
    // An interrupted run still has a results directory: the caller reports what finished.
    if (err.name === 'AbortError')
      err.run = {
        dir,
        get results() {
          return results;
        },
      };
    throw err;
  } finally {
    progress.finish();
    results = finalize(doc, { complete, finishedAt: new Date().toISOString() });
    writeResults(dir, results);
  }
  return { dir, results };
}

/** One handshake's { protocol, group, key } with a route, or null with a note: it must not stop the run. */
async function negotiatedOrNull(target, termination, log) {
  try {
    return await negotiateRoute(target, termination);
  } catch (err) {
    log(`TLS handshake with the ${termination} route failed (${err.message}): its group is not recorded`);
    return null;
  }
}

/** The run's handshake floor, or null with a warning: a floor it cannot time must not stop the run. */
async function floorOrNull({ target, lab, log, signal, seen }) {
  try {
    const floor = await measureHandshakeFloor({
      target,
      openssl: requireTool('openssl'),
      // The binary the lab runs (LAB_HAPROXY), not whichever is found first; a router that is not
      // HAProxy names its TLS library itself (Envoy: BoringSSL).
      haproxy: target.mode === 'lab' ? lab?.router.haproxy?.path || findTool('haproxy') : null,
      routerTls: target.mode === 'lab' ? (lab?.router.tlsLibrary ?? null) : null,
      signal,
      seen: seen || undefined,
    });
    log(
      `handshake floor: ${floor.key} signature ${floor.signUs} µs + ${floor.group} key exchange ` +
        `${floor.keyExchangeUs} µs = ${floor.floorUs} µs per full handshake (openssl speed)`,
    );
    return floor;
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    log(`handshake floor: not measured (${err.message}); close cells get no floor multiple`);
    return null;
  }
}

/**
 * The cell run again by wrk or haload (as crossCheckPlan picks), as many runs as the cell's samples,
 * in the matrix `run`; `generatorRps` is what k6 got, to compare rates with.
 */
async function crossCheck(run, cell, generatorRps) {
  const { wrk, haload, target, opts, watch, signal } = run;
  const route = target.routes[cell.termination];
  const { tool, skip, ...where } = await crossCheckPlan(cell, route, target, { haload });
  if (skip) return { tool, skipped: skip };
  const load = {
    url: where.url,
    host: where.host,
    threads: WRK_THREADS,
    durationSeconds: opts.duration,
    watch: { router: watch.router },
    cpus: target.k6Cpus,
    signal,
  };
  // As many runs as the cell's samples, so the router's figure under each tool has its interval.
  const runs = [];
  for (let s = 1; s <= opts.samples; s++) {
    signal?.throwIfAborted();
    const measured =
      tool === 'haload'
        ? await runHaload({ ...load, ...where, haload, users: opts.vus })
        : await runWrk({ ...load, wrk, connections: opts.vus });
    const notClose = closeSkip(where, measured);
    if (notClose) return { tool, skipped: notClose };
    runs.push(measured);
  }
  const pooled = poolToolRuns(runs);
  return { tool, ...pooled, generatorRps, ...compareTools(generatorRps, pooled.rps) };
}

module.exports = { runMatrix, placeCells };
