'use strict';
// npm run bench:service: the data service against its two floors, on this machine, in this run.
//
//   node:http floor   a bare node:http handler doing the same Redis call
//   Express floor     a bare Express 5 route (no middleware, etag off) doing the same call
//   data service      node src/server.js with every feature on (metrics, Server-Timing,
//                     logging at info, validation, problem details)
//
// Each target is its own process, all on the same Redis. Load comes from wrk (a Node client
// cannot out-run a Node server on two cores). With two or more cores the servers get core 0
// and wrk + Redis the rest, so every target runs on the same resources. Rounds interleave the
// targets so background load hits them alike; the median round counts.
//
// Goals (issue 2): GET throughput >= 0.85x the Express floor; at half of the service's
// saturation, service time (its own Server-Timing app value) p50 <= 0.5 ms and p99 <= 2 ms.
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

async function bench(opts, signal) {
  const wrk = requireTool('wrk');
  const redisServer = requireTool('redis-server');
  const taskset = os.availableParallelism() >= 2 ? findTool('taskset') : null;
  const serverCpus = taskset ? '0' : null;
  const loadCpus = taskset ? `1-${os.availableParallelism() - 1}` : null;

  const children = [];
  let redis;
  let client;
  let dir;
  const cleanup = async () => {
    // An interrupted run leaves the client connected: it would keep reconnecting to a stopped Redis.
    if (client) client.disconnect();
    await Promise.all(children.map((c) => c.stop({ timeoutMs: 5000 })));
    if (redis) await redis.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-bench-'));
    log(
      `redis-server ${redisServer}; wrk ${wrk}${taskset ? `; servers on cpu ${serverCpus}, wrk and Redis on cpu ${loadCpus}` : ''}`,
    );
    redis = await startTestRedis({ dir });
    if (taskset) repin(redis.children[0].pid, loadCpus);
    if (opts.waitReplicas) {
      // A replica for WAIT, on the load cores like its primary.
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
      if (taskset) repin(replica.pid, loadCpus);
      const deadline = Date.now() + 10000;
      while (!/master_link_status:up/.test(await redisCli(replicaPort, undefined, 'info', 'replication'))) {
        if (Date.now() > deadline)
          throw new Error(`the Redis replica on port ${replicaPort} did not sync in 10 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
      log(
        `a Redis replica on port ${replicaPort}; the data service runs with REDIS_WAIT_REPLICAS=${opts.waitReplicas}`,
      );
    }
    client = new Redis(redis.url);
    const id = crypto.randomUUID();
    const record = JSON.stringify({ id, customer: 'bench', segment: 'retail', note: 'x'.repeat(920) });
    const seed = async () => {
      await client.flushall();
      await client.set(`record:${id}`, record);
    };
    await seed();

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
      const [file, args] = pinned(process.execPath, target.args, serverCpus);
      // Only the data service waits for replicas: the floors show what the write costs without.
      const wait =
        target.key === 'service' && opts.waitReplicas
          ? { REDIS_WAIT_REPLICAS: String(opts.waitReplicas) }
          : {};
      target.child = startChild(file, args, {
        env: { ...env, ...wait, PORT: String(target.port), TLS_PORT: '0' },
      });
      children.push(target.child);
    }
    for (const target of targets) {
      await waitForPort(target.port, { what: target.name, timeoutMs: 15000 }).catch((err) => {
        throw new Error(`${err.message}\n${target.child.output()}`);
      });
      const res = await fetch(`http://127.0.0.1:${target.port}/api/records/${id}`);
      if (res.status !== 200 || (await res.text()) !== record) {
        throw new Error(`${target.name} does not serve the seeded record (status ${res.status})`);
      }
    }

    const wrkRun = async (target, { op, seconds, connections, script, paceMs }) => {
      const paths = { GET: `/api/records/${id}`, POST: '/api/records', PAGE: '/api/pages/1k' };
      const url = `http://127.0.0.1:${target.port}${paths[op]}`;
      const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
      if (script) args.push('-s', path.join(HERE, script));
      const cpuBefore = cpuSeconds(target.child.pid);
      const result = await runTool(
        benchWrk,
        { wrk, args: [...args, url], paceMs },
        { cpus: loadCpus, signal },
      );
      // Requests per CPU-second of the server process: what one dedicated core would sustain.
      // Unlike requests/s it does not move when other work on the machine steals the core.
      result.perCpuSecond = result.requests / (cpuSeconds(target.child.pid) - cpuBefore);
      if (op === 'POST') await seed();
      if (result.non2xx || result.socketErrors) {
        log(
          `  warning: ${target.name} ${op}: ${result.non2xx} non-2xx responses, ${result.socketErrors} socket errors`,
        );
      }
      return result;
    };

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

    // The router matrix's route, for scale: what one instance serves when the router asks for pages.
    log(`pages: GET /api/pages/1k on the data service (${opts.duration} s)`);
    const pages = await wrkRun(targets[2], {
      op: 'PAGE',
      seconds: opts.duration,
      connections: opts.connections,
    });

    // Service time at half of the service's GET saturation: paced connections, Server-Timing.
    // Redis may now run on any core: pinned next to wrk, a GET's round trip would also measure
    // how long Redis waits for wrk's core, which is not the service's time.
    if (taskset) {
      repin(redis.children[0].pid, `0-${os.availableParallelism() - 1}`);
    }
    const service = targets[2];
    const targetRate = summary.service.GET.rps / 2;
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
    const half = {
      rps: paced.rps,
      fractionOfSaturation: paced.rps / summary.service.GET.rps,
      clientP50: paced.p50,
      clientP99: paced.p99,
      appP50: binPercentile(timing.app, 50),
      appP90: binPercentile(timing.app, 90),
      appP99: binPercentile(timing.app, 99),
      redisP50: binPercentile(timing.redis, 50),
      redisP99: binPercentile(timing.redis, 99),
      missingServerTiming: timing.missing,
    };

    await client.quit();
    client = null;
    report({ opts, summary, half, pages, serverCpus, loadCpus });
  } finally {
    await cleanup();
  }
}

function report({ opts, summary, half, pages, serverCpus, loadCpus }) {
  const f = (n, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
  const int = (n) => (Number.isFinite(n) ? String(Math.round(n)) : 'n/a');
  const rows = [
    ['node:http floor', summary.http],
    ['Express floor', summary.express],
    ['data service', summary.service],
  ];
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
  for (const [name, s] of rows) {
    out.push(
      `| ${name} | ${int(s.GET.rps)} | ${int(s.GET.perCpuSecond)} | ${f(s.GET.p50)} | ${f(s.GET.p99)} | ` +
        `${int(s.POST.rps)} | ${int(s.POST.perCpuSecond)} | ${f(s.POST.p50)} | ${f(s.POST.p99)} | ${s.GET.errors + s.POST.errors} |`,
    );
  }

  const ratios = {};
  for (const op of ['GET', 'POST']) {
    for (const floor of ['express', 'http']) {
      ratios[`${op} vs ${floor}`] = summary.service[op].rps / summary[floor][op].rps;
      ratios[`${op} vs ${floor} per CPU-second`] =
        summary.service[op].perCpuSecond / summary[floor][op].perCpuSecond;
    }
  }
  ratios['Express floor vs node:http floor, GET'] = summary.express.GET.rps / summary.http.GET.rps;
  out.push('');
  out.push('Ratios, data service / floor: req/s, and in brackets req/CPU-s (not skewed by background load):');
  for (const op of ['GET', 'POST']) {
    out.push(
      `  ${op.padEnd(4)} vs Express floor ${f(ratios[`${op} vs express`])}x (${f(ratios[`${op} vs express per CPU-second`])}x)` +
        `    vs node:http floor ${f(ratios[`${op} vs http`])}x (${f(ratios[`${op} vs http per CPU-second`])}x)`,
    );
  }
  out.push(`  Express floor vs node:http floor, GET: ${f(ratios['Express floor vs node:http floor, GET'])}x`);
  out.push('');
  out.push(
    `Pages (the router matrix's route): GET /api/pages/1k on the data service: ${int(pages.rps)} req/s, ` +
      `${int(pages.perCpuSecond)} req/CPU-s, p50 ${f(pages.p50)} ms, p99 ${f(pages.p99)} ms`,
  );
  out.push('');
  out.push(
    `Service time at half of saturation: ${int(half.rps)} GET/s (${f(half.fractionOfSaturation * 100, 0)}% of the ` +
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

  const getVsExpress = ratios['GET vs express'];
  const getVsExpressCpu = ratios['GET vs express per CPU-second'];
  const goals = [
    [
      `GET throughput >= ${GOAL_RATIO}x the Express floor (req/s)`,
      `${f(getVsExpress)}x`,
      getVsExpress >= GOAL_RATIO,
    ],
    [
      `GET throughput >= ${GOAL_RATIO}x the Express floor (req/CPU-s)`,
      `${f(getVsExpressCpu)}x`,
      getVsExpressCpu >= GOAL_RATIO,
    ],
    [
      `service time p50 <= ${GOAL_P50_MS} ms at half saturation`,
      `${f(half.appP50, 3)} ms`,
      half.appP50 <= GOAL_P50_MS,
    ],
    [
      `service time p99 <= ${GOAL_P99_MS} ms at half saturation`,
      `${f(half.appP99, 3)} ms`,
      half.appP99 <= GOAL_P99_MS,
    ],
  ];
  out.push('Goals:');
  for (const [goal, value, ok] of goals) out.push(`  ${ok ? 'PASS' : 'FAIL'}  ${goal}: ${value}`);
  process.stdout.write(`${out.join('\n')}\n`);

  if (opts.json) {
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
    fs.writeFileSync(opts.json, `${JSON.stringify(figures, null, 2)}\n`);
    log(`figures written to ${opts.json}`);
  }
}

if (require.main === module) {
  main().catch((err) => {
    const interrupted = err.name === 'AbortError';
    if (!interrupted) process.stderr.write(`bench:service: ${err.message}\n`);
    process.exitCode = interrupted ? 130 : 1;
  });
}

module.exports = { parseWrk, binPercentile, parseArgs };
