'use strict';
// npm run bench:service: the data service against two floors doing the same Redis call (bare
// node:http, bare Express 5), each its own process on the same Redis, loaded by wrk; rounds
// interleave the targets and the median round counts; then service time at half saturation.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const Redis = require('ioredis');
const { requireTool, findTool } = require('../../lib/core/tools');
const { defineCommand, commandLine, derived } = require('../../lib/core/settings');
const { parseWrkOutput } = require('../../lib/load/wrk-output');
const { runTool } = require('../../lib/load/runner');
const { startTestRedis, redisServerArgs, waitForRedis, redisCli } = require('../../lib/core/redis-server');
const { startChild, pinned, repin } = require('../../lib/core/processes');
const { readStat } = require('../../lib/core/proc');
const { withInterrupt } = require('../../lib/core/interrupt');
const { freePorts, waitForPort } = require('../../lib/core/ports');

const HERE = __dirname;
// The service's features (metrics, Server-Timing, logging, validation) may cost little over a
// bare Express route, and its own time must stay small beside what the router adds.
const GOAL_RATIO = 0.85;
const GOAL_P50_MS = 0.5;
const GOAL_P99_MS = 2;

const COMMAND = defineCommand({
  usage: 'npm run bench:service -- [options]',
  description: `Measures GET /api/records/:id (a 1 kB record) and POST /api/records on the data service and on
two floors doing the same Redis call (bare node:http, bare Express 5), then service time at half
of saturation. Prints throughput ratios, latency and service-time percentiles, and the goals.`,
  settings: [
    {
      name: 'duration',
      flag: '--duration',
      arg: '<s>',
      type: 'integer',
      min: 1,
      default: derived('5, --quick 3', (v) => (v.quick ? 3 : 5)),
      help: 'seconds per measurement',
    },
    {
      name: 'rounds',
      flag: '--rounds',
      arg: '<n>',
      type: 'integer',
      min: 1,
      default: derived('3, --quick 1', (v) => (v.quick ? 1 : 3)),
      help: 'interleaved rounds; the median counts',
    },
    {
      name: 'connections',
      flag: '--connections',
      arg: '<n>',
      type: 'integer',
      min: 1,
      default: 32,
      help: 'wrk connections at saturation',
    },
    { name: 'json', flag: '--json', arg: '<file>', type: 'string', help: 'also write the figures as JSON' },
    { name: 'quick', flag: '--quick', type: 'boolean', help: 'a smoke run (figures are rough)' },
    {
      name: 'waitReplicas',
      flag: '--wait-replicas',
      arg: '<n>',
      type: 'integer',
      min: 0,
      max: 1,
      default: 0,
      help: 'give Redis a replica and run the data service with REDIS_WAIT_REPLICAS=n: each write then waits for it (WAIT); compare POST with a run without',
    },
  ],
});
/** The options, or { help: true }; throws UsageError naming the option. */
function parseArgs(argv) {
  const parsed = COMMAND.parse(argv);
  return parsed.help ? parsed : parsed.values;
}

const log = (line) => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// wrk output

/** wrk's figures in the shape this benchmark reports, plus the SERVICE_TIMING line its Lua prints. */
function parseWrk(out) {
  const wrk = parseWrkOutput(out);
  const timing = /^SERVICE_TIMING (.*)$/m.exec(out);
  return {
    rps: wrk.rps,
    requests: wrk.requests ?? 0,
    p50: wrk.p50 ?? NaN,
    p90: wrk.p90 ?? NaN,
    p99: wrk.p99 ?? NaN,
    non2xx: wrk.non2xx,
    socketErrors: wrk.errors,
    serviceTiming: timing ? JSON.parse(timing[1]) : null,
  };
}

/** Percentile (ms) from 10 µs bins {bin: count}; the bin's upper edge, so never optimistic. */
function binPercentile(bins, p) {
  const entries = Object.entries(bins)
    .map(([bin, count]) => [Number(bin), count])
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((a, [, c]) => a + c, 0);
  if (total === 0) return NaN;
  let seen = 0;
  for (const [bin, count] of entries) {
    seen += count;
    if (seen >= (p / 100) * total) return (bin + 1) / 100;
  }
  return NaN;
}

// ---------------------------------------------------------------------------------------------

/** wrk as this benchmark runs it (its own Lua scripts and PACE_MS), on the project's tool runner. */
const benchWrk = {
  name: 'wrk',
  describe: ({ args }) => `wrk ${args.join(' ')}`,
  command: ({ wrk, args, paceMs }) => ({
    file: wrk,
    args,
    env: { ...process.env, PACE_MS: String(paceMs || 0) },
  }),
  parse: (run) => parseWrk(run.output),
};

/** CPU seconds (user + system) a process has used so far, or NaN without /proc. */
function cpuSeconds(pid) {
  const stat = readStat(pid);
  return stat ? stat.cpuSeconds : NaN;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  const opts = commandLine(COMMAND, process.argv.slice(2), { name: 'bench:service', parse: parseArgs });
  // Ctrl-C (or SIGTERM) stops wrk at once; the finally below stops the servers and Redis.
  await withInterrupt((signal) => bench(opts, signal), {
    message: '\ninterrupted: stopping wrk, the servers and Redis',
  });
}

/**
 * The cores: with two or more (and taskset), the servers get core 0 and wrk + Redis the rest, so
 * every target runs on the same resources; a Node client could not out-run a Node server anyway.
 */
function placement() {
  const taskset = os.availableParallelism() >= 2 ? findTool('taskset') : null;
  return {
    taskset,
    serverCpus: taskset ? '0' : null,
    loadCpus: taskset ? `1-${os.availableParallelism() - 1}` : null,
  };
}

/** A replica of `redis` for WAIT, on the load cores like its primary; resolves once it is in sync. */
async function startReplica({ redis, redisServer, dir, cpus, children }) {
  const [replicaPort] = await freePorts(1);
  const replicaDir = path.join(dir, 'replica');
  fs.mkdirSync(replicaDir);
  const replica = startChild(redisServer, [
    ...redisServerArgs({ port: replicaPort, dir: replicaDir }),
    '--replicaof',
    '127.0.0.1',
    String(redis.port),
  ]);
  children.push(replica);
  await waitForRedis(replicaPort);
  if (cpus.taskset) repin(replica.pid, cpus.loadCpus);
  const deadline = Date.now() + 10000;
  while (!/master_link_status:up/.test(await redisCli(replicaPort, undefined, 'info', 'replication'))) {
    if (Date.now() > deadline)
      throw new Error(`the Redis replica on port ${replicaPort} did not sync in 10 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return replicaPort;
}

/** The three targets started on the server cores, each checked to serve the seeded record. */
async function startTargets({ opts, redis, cpus, seeded, children }) {
  const ports = await freePorts(3);
  const env = {
    PATH: process.env.PATH,
    REDIS_URL: redis.url,
    LOG_LEVEL: 'info',
    DRAIN_DELAY_MS: '0',
    INSTANCE_NAME: 'bench',
  };
  const targets = [
    { name: 'node:http floor', key: 'http', args: [path.join(HERE, 'floors.js'), 'http'] },
    { name: 'Express floor', key: 'express', args: [path.join(HERE, 'floors.js'), 'express'] },
    { name: 'data service', key: 'service', args: [path.join(HERE, '..', 'src', 'server.js')] },
  ];
  for (const [i, target] of targets.entries()) {
    target.port = ports[i];
    const [file, args] = pinned(process.execPath, target.args, cpus.serverCpus);
    // Only the data service waits for replicas: the floors show what the write costs without.
    const wait =
      target.key === 'service' && opts.waitReplicas ? { REDIS_WAIT_REPLICAS: String(opts.waitReplicas) } : {};
    target.child = startChild(file, args, {
      env: { ...env, ...wait, PORT: String(target.port), TLS_PORT: '0' },
    });
    children.push(target.child);
  }
  for (const target of targets) {
    await waitForPort(target.port, { what: target.name, timeoutMs: 15000 }).catch((err) => {
      throw new Error(`${err.message}\n${target.child.output()}`);
    });
    const res = await fetch(`http://127.0.0.1:${target.port}/api/records/${seeded.id}`);
    if (res.status !== 200 || (await res.text()) !== seeded.record) {
      throw new Error(`${target.name} does not serve the seeded record (status ${res.status})`);
    }
  }
  return targets;
}

/** One wrk run against a target: its figures, requests per server CPU-second, warnings logged. */
function wrkRunner({ wrk, seeded, cpus, signal }) {
  return async (target, { op, seconds, connections, script, paceMs }) => {
    const paths = { GET: `/api/records/${seeded.id}`, POST: '/api/records', PAGE: '/api/pages/1k' };
    const url = `http://127.0.0.1:${target.port}${paths[op]}`;
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
    if (script) args.push('-s', path.join(HERE, script));
    const cpuBefore = cpuSeconds(target.child.pid);
    const result = await runTool(
      benchWrk,
      { wrk, args: [...args, url], paceMs },
      { cpus: cpus.loadCpus, signal },
    );
    // Requests per CPU-second of the server process: what one dedicated core would sustain.
    // Unlike requests/s it does not move when other work on the machine steals the core.
    result.perCpuSecond = result.requests / (cpuSeconds(target.child.pid) - cpuBefore);
    if (op === 'POST') await seeded.seed();
    if (result.non2xx || result.socketErrors) {
      log(
        `  warning: ${target.name} ${op}: ${result.non2xx} non-2xx responses, ${result.socketErrors} socket errors`,
      );
    }
    return result;
  };
}

/**
 * GET and POST on every target after a JIT warm-up, in interleaved rounds so background load
 * hits them alike; the median round per target and operation.
 */
async function measureRounds(targets, wrkRun, opts) {
  log(`warming up each target (JIT) ...`);
  for (const target of targets) {
    await wrkRun(target, { op: 'GET', seconds: 2, connections: opts.connections });
    await wrkRun(target, { op: 'POST', seconds: 1, connections: opts.connections, script: 'post.lua' });
  }
  const results = Object.fromEntries(targets.map((t) => [t.key, { GET: [], POST: [] }]));
  for (let round = 1; round <= opts.rounds; round++) {
    for (const op of ['GET', 'POST']) {
      for (const target of targets) {
        log(
          `round ${round}/${opts.rounds}: ${op} ${target.name} (${opts.duration} s, ${opts.connections} connections)`,
        );
        const r = await wrkRun(target, {
          op,
          seconds: opts.duration,
          connections: opts.connections,
          script: op === 'POST' ? 'post.lua' : undefined,
        });
        log(
          `  ${Math.round(r.rps)} requests/s, ${Math.round(r.perCpuSecond)} per CPU-second, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`,
        );
        results[target.key][op].push(r);
      }
    }
  }
  const summary = {};
  for (const target of targets) {
    summary[target.key] = {};
    for (const op of ['GET', 'POST']) {
      const runs = results[target.key][op];
      summary[target.key][op] = {
        rps: median(runs.map((r) => r.rps)),
        perCpuSecond: median(runs.map((r) => r.perCpuSecond)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        errors: runs.reduce((a, r) => a + r.non2xx + r.socketErrors, 0),
      };
    }
  }
  return summary;
}

/**
 * Service time at half of the service's GET saturation: paced connections (adjusted until the
 * rate is within 15 % of the target), percentiles from the service's own Server-Timing.
 */
async function halfSaturation(service, wrkRun, { opts, saturation }) {
  const targetRate = saturation / 2;
  const paceMs = 1;
  let connections = Math.max(1, Math.round((targetRate * (paceMs + 0.3)) / 1000));
  let paced;
  for (let attempt = 0; attempt < 4; attempt++) {
    log(`half saturation: ~${Math.round(targetRate)} requests/s target, ${connections} paced connections`);
    paced = await wrkRun(service, {
      op: 'GET',
      seconds: Math.max(opts.duration, 5),
      connections,
      script: 'service-time.lua',
      paceMs,
    });
    const ratio = paced.rps / targetRate;
    if (ratio > 0.85 && ratio < 1.15) break;
    connections = Math.max(1, Math.round(connections / ratio));
  }
  const timing = paced.serviceTiming;
  return {
    rps: paced.rps,
    fractionOfSaturation: paced.rps / saturation,
    clientP50: paced.p50,
    clientP99: paced.p99,
    appP50: binPercentile(timing.app, 50),
    appP90: binPercentile(timing.app, 90),
    appP99: binPercentile(timing.app, 99),
    redisP50: binPercentile(timing.redis, 50),
    redisP99: binPercentile(timing.redis, 99),
    missingServerTiming: timing.missing,
  };
}

/** A 1 kB record under a fresh id, and how to put Redis back to holding only it (after POSTs). */
function seededRecord(client) {
  const id = crypto.randomUUID();
  const record = JSON.stringify({ id, customer: 'bench', segment: 'retail', note: 'x'.repeat(920) });
  const seed = async () => {
    await client.flushall();
    await client.set(`record:${id}`, record);
  };
  return { id, record, seed };
}

async function bench(opts, signal) {
  const wrk = requireTool('wrk');
  const redisServer = requireTool('redis-server');
  const cpus = placement();
  const children = [];
  let redis;
  let client;
  let dir;
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-bench-'));
    const pinning = cpus.taskset
      ? `; servers on cpu ${cpus.serverCpus}, wrk and Redis on cpu ${cpus.loadCpus}`
      : '';
    log(`redis-server ${redisServer}; wrk ${wrk}${pinning}`);
    redis = await startTestRedis({ dir });
    if (cpus.taskset) repin(redis.children[0].pid, cpus.loadCpus);
    if (opts.waitReplicas) {
      const replicaPort = await startReplica({ redis, redisServer, dir, cpus, children });
      log(
        `a Redis replica on port ${replicaPort}; the data service runs with REDIS_WAIT_REPLICAS=${opts.waitReplicas}`,
      );
    }
    client = new Redis(redis.url);
    const seeded = seededRecord(client);
    await seeded.seed();
    const targets = await startTargets({ opts, redis, cpus, seeded, children });
    const wrkRun = wrkRunner({ wrk, seeded, cpus, signal });
    const summary = await measureRounds(targets, wrkRun, opts);
    const service = targets.find((t) => t.key === 'service');

    // The router matrix's route, for scale: what one instance serves when the router asks for pages.
    log(`pages: GET /api/pages/1k on the data service (${opts.duration} s)`);
    const pages = await wrkRun(service, {
      op: 'PAGE',
      seconds: opts.duration,
      connections: opts.connections,
    });

    // Redis may now run on any core: pinned next to wrk, a GET's round trip would also measure
    // how long Redis waits for wrk's core, which is not the service's time.
    if (cpus.taskset) repin(redis.children[0].pid, `0-${os.availableParallelism() - 1}`);
    const half = await halfSaturation(service, wrkRun, { opts, saturation: summary.service.GET.rps });

    await client.quit();
    client = null;
    report({ opts, summary, half, pages, serverCpus: cpus.serverCpus, loadCpus: cpus.loadCpus });
  } finally {
    // An interrupted run leaves the client connected: it would keep reconnecting to a stopped Redis.
    if (client) client.disconnect();
    await Promise.all(children.map((c) => c.stop({ timeoutMs: 5000 })));
    if (redis) await redis.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

const fixed = (n, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const whole = (n) => (Number.isFinite(n) ? String(Math.round(n)) : 'n/a');

/** The data service's throughput over each floor's, per operation, by req/s and by req/CPU-s. */
function ratiosOf(summary) {
  const ratios = {};
  for (const op of ['GET', 'POST']) {
    for (const floor of ['express', 'http']) {
      ratios[`${op} vs ${floor}`] = summary.service[op].rps / summary[floor][op].rps;
      ratios[`${op} vs ${floor} per CPU-second`] =
        summary.service[op].perCpuSecond / summary[floor][op].perCpuSecond;
    }
  }
  ratios['Express floor vs node:http floor, GET'] = summary.express.GET.rps / summary.http.GET.rps;
  return ratios;
}

/** [goal, value, met] for each goal. */
function goalsOf(ratios, half) {
  const getVsExpress = ratios['GET vs express'];
  const getVsExpressCpu = ratios['GET vs express per CPU-second'];
  return [
    [
      `GET throughput >= ${GOAL_RATIO}x the Express floor (req/s)`,
      `${fixed(getVsExpress)}x`,
      getVsExpress >= GOAL_RATIO,
    ],
    [
      `GET throughput >= ${GOAL_RATIO}x the Express floor (req/CPU-s)`,
      `${fixed(getVsExpressCpu)}x`,
      getVsExpressCpu >= GOAL_RATIO,
    ],
    [
      `service time p50 <= ${GOAL_P50_MS} ms at half saturation`,
      `${fixed(half.appP50, 3)} ms`,
      half.appP50 <= GOAL_P50_MS,
    ],
    [
      `service time p99 <= ${GOAL_P99_MS} ms at half saturation`,
      `${fixed(half.appP99, 3)} ms`,
      half.appP99 <= GOAL_P99_MS,
    ],
  ];
}

/** The machine and the run's shape, then the table of the three targets. */
function summaryLines({ opts, summary, serverCpus, loadCpus }) {
  const out = [''];
  out.push(
    `Data service benchmark: ${os.cpus().length} cores (${os.cpus()[0].model.trim()}), node ${process.version}, ` +
      `${opts.rounds} round(s) x ${opts.duration} s, ${opts.connections} connections, median round` +
      (serverCpus ? `; servers on cpu ${serverCpus}, wrk + Redis on cpu ${loadCpus}` : ''),
  );
  const load = os.loadavg();
  out.push(
    `load average at the end: ${load.map((l) => l.toFixed(2)).join(' ')}` +
      (load[1] > os.cpus().length
        ? ' (busy: other work skews req/s and latency; req/CPU-s is robust to it)'
        : ' (quiet machine)'),
  );
  out.push('');
  out.push(
    '| target | GET req/s | GET req/CPU-s | GET p50 ms | GET p99 ms | POST req/s | POST req/CPU-s | POST p50 ms | POST p99 ms | errors |',
  );
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const rows = [
    ['node:http floor', summary.http],
    ['Express floor', summary.express],
    ['data service', summary.service],
  ];
  for (const [name, s] of rows) {
    out.push(
      `| ${name} | ${whole(s.GET.rps)} | ${whole(s.GET.perCpuSecond)} | ${fixed(s.GET.p50)} | ${fixed(s.GET.p99)} | ` +
        `${whole(s.POST.rps)} | ${whole(s.POST.perCpuSecond)} | ${fixed(s.POST.p50)} | ${fixed(s.POST.p99)} | ${s.GET.errors + s.POST.errors} |`,
    );
  }
  return out;
}

/** The ratios to the floors, the pages' figures and the service time at half saturation. */
function detailLines({ ratios, pages, half }) {
  const f = fixed;
  const out = [
    '',
    'Ratios, data service / floor: req/s, and in brackets req/CPU-s (not skewed by background load):',
  ];
  for (const op of ['GET', 'POST']) {
    out.push(
      `  ${op.padEnd(4)} vs Express floor ${f(ratios[`${op} vs express`])}x (${f(ratios[`${op} vs express per CPU-second`])}x)` +
        `    vs node:http floor ${f(ratios[`${op} vs http`])}x (${f(ratios[`${op} vs http per CPU-second`])}x)`,
    );
  }
  out.push(`  Express floor vs node:http floor, GET: ${f(ratios['Express floor vs node:http floor, GET'])}x`);
  out.push('');
  out.push(
    `Pages (the router matrix's route): GET /api/pages/1k on the data service: ${whole(pages.rps)} req/s, ` +
      `${whole(pages.perCpuSecond)} req/CPU-s, p50 ${f(pages.p50)} ms, p99 ${f(pages.p99)} ms`,
  );
  out.push('');
  out.push(
    `Service time at half of saturation: ${whole(half.rps)} GET/s (${f(half.fractionOfSaturation * 100, 0)}% of the ` +
      `service's saturation), from the service's own Server-Timing:`,
  );
  out.push(
    `  app   p50 ${f(half.appP50, 3)} ms   p90 ${f(half.appP90, 3)} ms   p99 ${f(half.appP99, 3)} ms` +
      `   (redis p50 ${f(half.redisP50, 3)} ms, p99 ${f(half.redisP99, 3)} ms; ` +
      `client-side p50 ${f(half.clientP50)} ms, p99 ${f(half.clientP99)} ms)`,
  );
  if (half.missingServerTiming)
    out.push(`  warning: ${half.missingServerTiming} responses had no Server-Timing`);
  out.push('');
  return out;
}

/** --json: the figures, the machine and the goals, for comparing runs. */
function writeFigures(file, { opts, summary, ratios, pages, half, goals }) {
  const machine = {
    cores: os.cpus().length,
    model: os.cpus()[0].model.trim(),
    node: process.version,
    loadavg: os.loadavg(),
  };
  const figures = {
    when: new Date().toISOString(),
    machine,
    options: opts,
    summary,
    ratios,
    pages: { rps: pages.rps, perCpuSecond: pages.perCpuSecond, p50: pages.p50, p99: pages.p99 },
    halfSaturation: half,
    goals: goals.map(([goal, value, pass]) => ({ goal, value, pass })),
  };
  fs.writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  log(`figures written to ${file}`);
}

function report({ opts, summary, half, pages, serverCpus, loadCpus }) {
  const ratios = ratiosOf(summary);
  const goals = goalsOf(ratios, half);
  const out = [
    ...summaryLines({ opts, summary, serverCpus, loadCpus }),
    ...detailLines({ ratios, pages, half }),
  ];
  out.push('Goals:');
  for (const [goal, value, ok] of goals) out.push(`  ${ok ? 'PASS' : 'FAIL'}  ${goal}: ${value}`);
  process.stdout.write(`${out.join('\n')}\n`);
  if (opts.json) writeFigures(opts.json, { opts, summary, ratios, pages, half, goals });
}

if (require.main === module) {
  main().catch((err) => {
    const interrupted = err.name === 'AbortError';
    if (!interrupted) process.stderr.write(`bench:service: ${err.message}\n`);
    process.exitCode = interrupted ? 130 : 1;
  });
}

module.exports = { parseWrk, binPercentile, parseArgs };
