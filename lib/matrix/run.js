'use strict';
// The matrix run: resolve the target, run every cell (warm-up, samples, cool-down, optional wrk
// cross-check), then write results.json, the raw summaries and the report.
const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: pause } = require('node:timers/promises');
const { RESULTS_DIR, labDir: defaultLabDir } = require('../core/paths');
const { requireTool, findTool } = require('../core/tools');
const { isAlive } = require('../core/processes');
const { readLabState } = require('../lab/state');
const { DEFAULT_NAMESPACE } = require('../../k6/lib/cells');
const { URL_VARS, resolveTargets } = require('../../k6/lib/targets');
const { defaultMaxVus } = require('../../k6/lib/generator');
const { planCells, estimateSeconds } = require('./plan');
const { runK6Sample } = require('../load/k6');
const { buildCellResult } = require('../results/cell');
const { RESULTS_FILE, createRun, addCell, finalize, writeResults, tlsBlock } = require('../results/document');
const { runWrk } = require('../load/wrk');
const { wrkTarget, compareTools, crossCheckSkip } = require('./cross-check');
const { describeEnvironment } = require('./environment');
const { createProgress } = require('./progress');
const { describeCell } = require('../report/console');

function runId(date = new Date()) {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .replace('T', '-');
}

/** Where to send traffic: the running lab (from lab.json) or a cluster named by options. */
function resolveTarget(opts, env = process.env) {
  if (opts.target === 'lab') {
    const labDir = defaultLabDir(env);
    const lab = readLabState(labDir);
    if (!lab)
      throw new Error(
        `no lab is running in ${labDir}: start it with 'npm run lab:up' (or use 'npm run lab')`,
      );
    if (!isAlive(lab.router.pid)) {
      throw new Error(
        `the lab's router (pid ${lab.router.pid}) is not running: 'npm run lab:down', then 'npm run lab:up'`,
      );
    }
    const routes = Object.fromEntries(lab.routes.map((r) => [r.termination, { url: r.url, host: r.host }]));
    const free = lab.placement && lab.placement.free;
    return {
      target: {
        mode: 'lab',
        appsDomain: lab.appsDomain,
        namespace: lab.namespace,
        httpPort: lab.router.httpPort,
        httpsPort: lab.router.httpsPort,
        caFile: opts.caFile || lab.certs.labCA,
        routes,
        // With LAB_CPUS placement, k6 runs on the cores left free for it.
        k6Cpus: free && free.length ? free.join(',') : null,
      },
      lab,
    };
  }
  // The k6 scripts' own resolution (k6/lib/targets.js), so the runner and k6 agree on every URL.
  const appsDomain = opts.appsDomain || env.APPS_DOMAIN || null;
  const namespace = opts.namespace || env.NAMESPACE || DEFAULT_NAMESPACE;
  const urls = {};
  const k6Env = { TARGET: 'cluster', NAMESPACE: namespace };
  if (appsDomain) k6Env.APPS_DOMAIN = appsDomain;
  for (const [termination, name] of Object.entries(URL_VARS)) {
    if (env[name]) k6Env[name] = urls[termination] = env[name];
  }
  const resolved = resolveTargets(k6Env);
  const routes = {};
  for (const [termination, route] of Object.entries(resolved.routes)) {
    routes[termination] = { url: route.url, host: route.host };
  }
  return {
    target: {
      mode: 'cluster',
      appsDomain,
      namespace,
      urls,
      routes,
      caFile: opts.caFile || env.SSL_CERT_FILE || null,
      insecure: Boolean(opts.insecure),
      k6Cpus: null,
    },
    lab: null,
  };
}

/** The load model of every cell: { executor, maxVus } (maxVus as k6 will use it). */
function loadModel(opts) {
  if (!opts.rate) return { executor: 'constant-vus', maxVus: opts.vus };
  return { executor: 'constant-arrival-rate', maxVus: opts.maxVus || defaultMaxVus(opts.vus, opts.rate) };
}

/** The results' tls block for a target: its trust store, and --insecure. */
function describeTls(target) {
  const trust = target.caFile ? `SSL_CERT_FILE=${target.caFile}` : 'the system trust store';
  return tlsBlock({ trust, insecure: Boolean(target.insecure) });
}

function safeName(cellName) {
  return cellName.replace(/:/g, '-');
}

/**
 * Runs the matrix. Returns { dir, results }. `signal` (AbortSignal) stops it between or inside
 * samples; what finished is still written, marked incomplete.
 */
async function runMatrix(
  opts,
  { env = process.env, log = console.log, progressStream = process.stderr, signal } = {},
) {
  const k6 = requireTool('k6');
  const { target, lab } = resolveTarget(opts, env);
  const cells = planCells(opts);
  for (const cell of cells) {
    if (!target.routes[cell.termination]) {
      throw new Error(
        `no URL for the ${cell.termination} route: pass --apps-domain or URL_${cell.termination.toUpperCase()}`,
      );
    }
  }
  const wrk = opts.crossCheck ? findTool('wrk') : null;
  if (opts.crossCheck && !wrk) throw new Error(`--cross-check needs wrk: run 'npm run setup -- --for lab'`);

  const id = runId();
  const dir = path.resolve(opts.out || path.join(RESULTS_DIR, id));
  if (fs.existsSync(path.join(dir, RESULTS_FILE))) {
    throw new Error(
      `${dir} already holds the results of a run: choose another --out (nothing was overwritten)`,
    );
  }
  const rawDir = path.join(dir, 'raw');
  fs.mkdirSync(rawDir, { recursive: true });

  const watch = {};
  const instanceNames = [];
  const redisNames = [];
  if (lab) {
    watch.router = lab.router.pid;
    for (const inst of lab.instances) {
      watch[inst.name] = inst.pid;
      instanceNames.push(inst.name);
    }
    (lab.redis.pids || []).forEach((pid, i) => {
      watch[`redis-${i + 1}`] = pid;
      redisNames.push(`redis-${i + 1}`);
    });
  }
  const { executor, maxVus } = loadModel(opts);
  const doc = createRun({
    id,
    options: {
      quick: opts.quick,
      sizes: opts.sizes,
      cells: opts.cells,
      durationSeconds: opts.duration,
      samples: opts.samples,
      warmupSeconds: opts.warmup,
      cooldownSeconds: opts.cooldown,
      executor,
      vus: opts.vus,
      rate: opts.rate,
      maxVus,
      crossCheck: opts.crossCheck,
    },
    environment: describeEnvironment({ k6, lab, opts, target }),
    tls: describeTls(target),
  });

  log(
    `matrix: ${cells.length} cell(s) against the ${target.mode}, ${opts.samples} sample(s) of ${opts.duration}s, ` +
      `${opts.rate ? `${opts.rate} req/s` : `${opts.vus} VUs`}; results in ${dir}`,
  );
  const progress = createProgress({
    total: cells.length,
    estimate: estimateSeconds(cells.length, opts),
    stream: progressStream,
  });
  const route = (cell) => target.routes[cell.termination];

  let complete = false;
  let results;
  try {
    for (const [index, cell] of cells.entries()) {
      signal?.throwIfAborted();
      if (opts.warmup > 0) {
        progress.update(index, cell.name, 'warm-up');
        await runK6Sample({
          k6,
          cell,
          opts,
          target,
          durationSeconds: opts.warmup,
          cpus: target.k6Cpus,
          signal,
        });
      }
      const samples = [];
      for (let s = 1; s <= opts.samples; s++) {
        signal?.throwIfAborted();
        progress.update(index, cell.name, `sample ${s}/${opts.samples}`);
        const rawFile = path.join('raw', `${safeName(cell.name)}-${s}.json`);
        const dashboard = opts.dashboard ? path.join('dashboards', `${safeName(cell.name)}-${s}.html`) : null;
        const sample = await runK6Sample({
          k6,
          cell,
          opts,
          target,
          durationSeconds: opts.duration,
          summaryPath: path.join(dir, rawFile),
          watch,
          cpus: target.k6Cpus,
          dashboard: dashboard && path.join(dir, dashboard),
          signal,
        });
        samples.push({ ...sample, rawFile, dashboard });
      }
      const figures = buildCellResult(cell, samples, { instanceNames, redisNames, maxVus });
      let checked = null;
      if (opts.crossCheck && cell.connection === 'keepalive') {
        const skip = crossCheckSkip(cell, opts);
        if (!skip) progress.update(index, cell.name, 'wrk cross-check');
        checked = skip
          ? { tool: 'wrk', skipped: skip }
          : await crossCheck({
              wrk,
              cell,
              route: route(cell),
              target,
              opts,
              watch,
              k6Rps: figures.rps,
              signal,
            });
      }
      addCell(doc, checked ? { ...figures, crossCheck: checked } : figures);
      // After each cell, what finished so far, as a valid (incomplete) document.
      const sofar = finalize(doc, { complete: false });
      writeResults(dir, sofar);
      progress.cellDone(index, describeCell(sofar.cells[index]));
      if (opts.cooldown > 0 && index < cells.length - 1) {
        progress.update(index + 1, cells[index + 1].name, 'cool-down');
        await pause(opts.cooldown * 1000, undefined, { signal });
      }
    }
    complete = true;
  } finally {
    progress.finish();
    results = finalize(doc, { complete, finishedAt: new Date().toISOString() });
    writeResults(dir, results);
  }
  return { dir, results };
}

async function crossCheck({ wrk, cell, route, target, opts, watch, k6Rps, signal }) {
  const where = await wrkTarget(cell, route, target);
  if (where.skip) return { tool: 'wrk', skipped: where.skip };
  const threads = Math.max(1, Math.min(2, require('node:os').cpus().length));
  const run = await runWrk({
    wrk,
    url: where.url,
    host: where.host,
    connections: opts.vus,
    threads,
    durationSeconds: opts.duration,
    watch: { router: watch.router },
    cpus: target.k6Cpus,
    signal,
  });
  return { tool: 'wrk', ...run, k6Rps, ...compareTools(k6Rps, run.rps) };
}

module.exports = { runMatrix, resolveTarget, loadModel, describeTls, runId };
