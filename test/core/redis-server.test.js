'use strict';
// waitForRedis and formCluster stop at once when their AbortSignal fires (Ctrl-C during lab:up),
// instead of waiting out redis-cli's 30 s. A SIGSTOPped redis-server accepts connections but never
// answers: the hang an abort must cut short.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const {
  REDIS_BUS_OFFSET,
  redisServerArgs,
  waitForRedis,
  formCluster,
} = require('../../lib/core/redis-server');
const { startChild } = require('../../lib/core/processes');
const { freePorts } = require('../../lib/core/ports');
const { requireTool } = require('../../lib/core/tools');

jest.setTimeout(60000);

/** Pids of redis-cli processes talking to `port`. */
function redisCliPids(port) {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => /redis-cli/.test(line) && line.includes(` -p ${port} `))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

async function until(check, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return check();
}

/** Runs `start(signal)`, aborts after `afterMs`; resolves { error, abortToSettleMs }. */
async function abortAfter(afterMs, start) {
  const controller = new AbortController();
  const settled = start(controller.signal).then(
    () => ({ error: null }),
    (error) => ({ error }),
  );
  await new Promise((r) => setTimeout(r, afterMs));
  const abortedAt = Date.now();
  controller.abort();
  const result = await settled;
  return { ...result, abortToSettleMs: Date.now() - abortedAt };
}

describe('redis-server waits honour an AbortSignal', () => {
  let dir;
  let servers = [];
  let ports;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-redis-abort-'));
    // Cluster nodes: the bus port (client port + offset) must be free too, or redis-server exits.
    ports = await freePorts(6, '127.0.0.1', { pairedOffset: REDIS_BUS_OFFSET });
    servers = ports.map((port) => {
      const nodeDir = path.join(dir, String(port));
      fs.mkdirSync(nodeDir);
      return startChild(requireTool('redis-server'), redisServerArgs({ port, dir: nodeDir, cluster: true }));
    });
    for (const port of ports) await waitForRedis(port);
  });

  afterAll(async () => {
    for (const s of servers) {
      try {
        process.kill(s.pid, 'SIGCONT');
      } catch {
        // already gone
      }
    }
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('waitForRedis with a signal that does not fire still returns once PING answers', async () => {
    await expect(waitForRedis(ports[0], { signal: new AbortController().signal })).resolves.toBeUndefined();
  });

  test('waitForRedis on a port nobody answers rejects within moments of the abort', async () => {
    const [idle] = await freePorts(1);
    const { error, abortToSettleMs } = await abortAfter(300, (signal) =>
      waitForRedis(idle, { timeoutMs: 30000, signal }),
    );
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(abortToSettleMs).toBeLessThan(2000);
  });

  test('waitForRedis on a hung server: the abort kills the waiting redis-cli', async () => {
    const hung = servers[5];
    process.kill(hung.pid, 'SIGSTOP');
    try {
      const { error, abortToSettleMs } = await abortAfter(500, (signal) =>
        waitForRedis(ports[5], { timeoutMs: 30000, signal }),
      );
      expect(error).toMatchObject({ name: 'AbortError' });
      expect(abortToSettleMs).toBeLessThan(2000);
      expect(await until(() => redisCliPids(ports[5]).length === 0)).toBe(true);
    } finally {
      process.kill(hung.pid, 'SIGCONT');
    }
  });

  test('formCluster with one node hung rejects within moments of the abort and leaves no redis-cli', async () => {
    const hung = servers[5];
    process.kill(hung.pid, 'SIGSTOP');
    try {
      const { error, abortToSettleMs } = await abortAfter(1000, (signal) =>
        formCluster(ports, { timeoutMs: 30000, signal }),
      );
      expect(error).toMatchObject({ name: 'AbortError' });
      expect(abortToSettleMs).toBeLessThan(2000);
      expect(await until(() => redisCliPids(ports[0]).length === 0)).toBe(true);
    } finally {
      process.kill(hung.pid, 'SIGCONT');
    }
  });

  test('an already aborted signal rejects before any redis-cli starts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(formCluster(ports, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    await expect(waitForRedis(ports[0], { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
