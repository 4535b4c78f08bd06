'use strict';
// The one tool runner and the two load generators defined on it: real k6 pinned with taskset
// (LAB_CPUS), real wrk pinned the same way and stopped by the run's AbortSignal, and a bare
// definition around `sleep` for what every generator shares.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const { execFileSync, spawn } = require('node:child_process');
const { once } = require('node:events');
const { requireTool, findTool } = require('../../lib/core/tools');
const { freePort } = require('../../lib/core/ports');
const { runK6Sample } = require('../../lib/load/k6');
const { runWrk } = require('../../lib/load/wrk');
const { runTool } = require('../../lib/load/runner');

jest.setTimeout(60000);

const running = (name) => {
  try {
    return execFileSync('pgrep', ['-x', name, '-P', String(process.pid)], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

test('k6 under taskset: the cores it may use come from the list it was pinned to, not the host', async () => {
  // Nothing listens on the port: every request fails fast, and k6 exits 99 (thresholds crossed),
  // which the runner accepts. One core of however many the host has.
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'k6-runner-'));
  const cell = { name: 'http:1k:keepalive', termination: 'http', pageSize: 1024, connection: 'keepalive' };
  const result = await runK6Sample({
    k6: requireTool('k6'),
    cell,
    opts: { vus: 1 },
    target: { mode: 'cluster', namespace: 'router-lab', urls: { http: `http://127.0.0.1:${port}` } },
    durationSeconds: 1,
    summaryPath: path.join(dir, 'summary.json'),
    cpus: '0',
  });
  fs.rmSync(dir, { recursive: true, force: true });
  expect(result.code).toBe(99);
  expect(result.allowedCores).toBe(1);
  // The script's own counters saw every refused connection as status 0, and failed the cell.
  const { metrics } = result.summary;
  expect(metrics.errors_status_0.values.count).toBe(metrics.http_reqs.values.count);
  expect(metrics.request_failed.values.rate).toBe(1);
  expect(metrics['request_failed{cell:http:1k:keepalive}'].thresholds).toEqual({
    'rate<=0.01': { ok: false },
  });
});

/** A 1 KiB http cell's k6 run against 127.0.0.1:`port`, its summary in `dir`. */
const k6Input = (port, dir, opts, durationSeconds) => ({
  k6: requireTool('k6'),
  cell: { name: 'http:1k:keepalive', termination: 'http', pageSize: 1024, connection: 'keepalive' },
  opts,
  target: { mode: 'cluster', namespace: 'router-lab', urls: { http: `http://127.0.0.1:${port}` } },
  durationSeconds,
  summaryPath: path.join(dir, 'summary.json'),
});

/** The smallest generator: `sleep SECONDS`, its exit code judged by the runner. */
const sleeper = {
  name: 'sleeper',
  describe: ({ seconds }) => `sleep ${seconds}`,
  command: ({ seconds }) => ({ file: 'sleep', args: [String(seconds)] }),
  parse: (run) => run,
};

test('the runner samples the tool and the watched pids, pinned cores included', async () => {
  const run = await runTool(sleeper, { seconds: 1.2 }, { watch: { self: process.pid }, cpus: '0' });
  expect(run.code).toBe(0);
  expect(run.allowedCores).toBe(1);
  expect(run.elapsedMs).toBeGreaterThanOrEqual(1000);
  expect(run.cpu.cores).toHaveProperty('sleeper');
  expect(run.cpu.cores.self).toBeGreaterThanOrEqual(0);
});

test('an abort stops the tool at once and rejects with AbortError; a bad exit names the run', async () => {
  const controller = new AbortController();
  const started = Date.now();
  const run = runTool(sleeper, { seconds: 30 }, { signal: controller.signal });
  setTimeout(() => controller.abort(), 300);
  await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  expect(Date.now() - started).toBeLessThan(5000);
  expect(running('sleep')).toBe('');
  await expect(runTool(sleeper, { seconds: 'never' })).rejects.toThrow(/sleep never failed \(exit 1\)/);
  await expect(runTool(sleeper, { seconds: 1 }, { signal: AbortSignal.abort() })).rejects.toMatchObject({
    name: 'AbortError',
  });
});

const wrk = findTool('wrk');
(wrk ? test : test.skip)('an aborted run stops wrk at once and rejects with AbortError', async () => {
  const server = http.createServer((req, res) => res.end('ok'));
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  try {
    const controller = new AbortController();
    const started = Date.now();
    const run = runWrk({
      wrk,
      url: `http://127.0.0.1:${port}/`,
      connections: 2,
      threads: 1,
      durationSeconds: 30,
      cpus: '0',
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(running('taskset') + running('wrk')).not.toBe('');
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(10000);
    expect(running('wrk')).toBe('');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('an end asked for before k6 traps SIGINT waits for its run to begin: the summary is kept, k6 not killed', async () => {
  // k6 starts with SIGINT ignored, so an end sent before it traps the signal would be lost (the
  // load running its whole bound): the runner waits for READY_LINE. Here it is asked for first.
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'k6-end-first-'));
  try {
    const end = new AbortController();
    end.abort();
    const input = k6Input(port, dir, { vus: 1, rate: 10, maxVus: 1 }, 60);
    const result = await runK6Sample({ ...input, end: end.signal });
    expect({ code: result.code, signal: result.signal, endedEarly: result.endedEarly }).toEqual({
      code: 105,
      signal: null,
      endedEarly: true,
    });
    expect(result.summary.metrics).toHaveProperty('request_failed');
    expect(result.output).toContain('router-lab: the run begins');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // A tool that never says it is ready is never sent the signal: it runs its length, not ended.
  const unready = { ...sleeper, endEarly: { signal: 'SIGINT', exitCode: 130, ready: 'never printed' } };
  const end = new AbortController();
  end.abort();
  const run = await runTool(unready, { seconds: 0.3 }, { end: end.signal });
  expect({ code: run.code, endedEarly: run.endedEarly }).toEqual({ code: 0, endedEarly: false });
});

test('SIGINT outside k6’s run is ignored: sent as it starts, k6 runs to its end and writes its summary', async () => {
  const { k6Generator } = require('../../lib/load/k6');
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'k6-sigint-'));
  try {
    const input = k6Input(port, dir, { vus: 1 }, 1);
    const { file, args, env } = k6Generator.command(input);
    const child = spawn(file, args, { env, stdio: 'ignore' });
    // Once the shell has become k6 (the trap set before its exec), and before k6 traps SIGINT
    // itself some 20 ms later, where the signal killed it before.
    const comm = () => fs.readFileSync(`/proc/${child.pid}/comm`, 'utf8').trim();
    while (comm() !== 'k6') await new Promise((resolve) => setImmediate(resolve));
    child.kill('SIGINT');
    const [code, signal] = await once(child, 'exit');
    // 99: ignored, every request refused and the thresholds crossed; 105: a busy host let k6 trap
    // it first. Either way not killed, and the summary is there.
    expect({ code: [99, 105].includes(code), signal }).toEqual({ code: true, signal: null });
    expect(JSON.parse(fs.readFileSync(input.summaryPath, 'utf8')).metrics).toHaveProperty('http_reqs');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('ended early, k6 keeps its summary: what it answered counts, nothing it cut counts as failed', async () => {
  // Every answer (the 1 KiB page the cell expects) takes 200 ms: at 20 requests/s about four are
  // in flight when the run is ended.
  const server = http.createServer((req, res) => setTimeout(() => res.end('x'.repeat(1024)), 200));
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'k6-end-'));
  try {
    const end = new AbortController();
    const started = Date.now();
    const run = runK6Sample({ ...k6Input(port, dir, { vus: 4, rate: 20, maxVus: 16 }, 60), end: end.signal });
    setTimeout(() => end.abort(), 2000);
    const result = await run;
    expect(Date.now() - started).toBeLessThan(15000);
    expect({ code: result.code, endedEarly: result.endedEarly }).toEqual({ code: 105, endedEarly: true });
    const { metrics } = result.summary;
    expect(metrics.http_reqs.values.count).toBeGreaterThan(10);
    expect(metrics.request_failed.values.rate).toBe(0);
    expect(running('k6')).toBe('');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await new Promise((resolve) => server.close(resolve));
  }
  // A tool without a way to end early is refused before it starts.
  await expect(runTool(sleeper, { seconds: 1 }, { end: new AbortController().signal })).rejects.toThrow(
    /sleeper cannot be ended early/,
  );
});
