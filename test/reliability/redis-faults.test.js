'use strict';
// Redis SIGKILLed under load and started again from its append-only file (LAB_REDIS_FSYNC=always): 503s
// while it is down, recovery by itself, every acknowledged write kept, and the durability check failing
// when a record is lost on purpose.
const lab = require('../../lib/lab/index');
const { redisCli } = require('../../lib/core/redis-server');
const { redisNodeRunning } = require('../../lib/lab/faults/redis-node');
const { untilWritesSucceed } = require('../../lib/reliability/redis-outage');
const { runReliability, selectScenarios } = require('../../lib/reliability/run');
const { useLab, quietLog, useTempDir } = require('../lab/helpers');

jest.setTimeout(120000);

const OPTS = { rate: 50, outageMs: 500, writers: 2 };

describe('Redis faults (real redis-server with an AOF, real HAProxy, real k6)', () => {
  const lab$ = useLab({ LAB_REPLICAS: '1', LAB_REDIS_FSYNC: 'always' });
  const { env } = lab$;
  const dir = useTempDir('rlab-redis-faults-');

  const run = (names, opts = OPTS, { signal } = {}) =>
    runReliability({
      scenarios: selectScenarios(names),
      opts,
      env,
      dir,
      runId: 'test',
      log: quietLog(),
      signal,
    });

  test('LAB_REDIS_FSYNC sets the AOF policy of the lab’s Redis, and lab.json records it', async () => {
    const state = lab.readLabState(env.LAB_DIR);
    expect(state.redis.fsync).toBe('always');
    expect(await redisCli(state.redis.ports[0], undefined, 'config', 'get', 'appendfsync')).toMatch(/always/);
    expect(await redisCli(state.redis.ports[0], undefined, 'config', 'get', 'appendonly')).toMatch(/yes/);
  });

  test('redis-kill: only 503s, no request hangs, writes recover by themselves', async () => {
    const before = lab.readLabState(env.LAB_DIR).redis.pids[0];
    const { doc } = await run(['redis-kill']);
    const [scenario] = doc.scenarios;
    const [c] = scenario.cases;
    expect(c.injected.map((i) => i.what)).toEqual([
      expect.stringMatching(/^SIGKILL redis-1/),
      expect.stringMatching(/^redis-1 started again/),
    ]);
    expect(Object.keys(c.load.errors).filter((s) => s !== '503')).toEqual([]);
    expect(c.recoveryMs).not.toBeNull();
    expect(scenario.verdict).toMatchObject({ pass: true, reasons: [] });
    expect(lab.readLabState(env.LAB_DIR).redis.pids[0]).not.toBe(before);
  });

  test('durability (always): every acknowledged write is read back after the crash', async () => {
    const { doc } = await run(['durability']);
    const [c] = doc.scenarios[0].cases;
    expect(c.dataLost.acknowledged).toBeGreaterThan(100);
    expect(c.figures.acknowledgedBeforeKill).toBeGreaterThan(50);
    expect(c.dataLost).toMatchObject({ count: 0, ids: [] });
    expect(doc.scenarios[0].verdict.pass).toBe(true);
  });

  test('durability FAILS when one acknowledged record is lost on purpose, and names it', async () => {
    const { doc } = await run(['durability'], { ...OPTS, dropAcknowledged: 1 });
    const [scenario] = doc.scenarios;
    const [c] = scenario.cases;
    expect(c.dataLost.count).toBe(1);
    expect(scenario.verdict.pass).toBe(false);
    expect(scenario.verdict.reasons[0]).toContain(
      `1 of ${c.dataLost.acknowledged} acknowledged writes lost (${c.dataLost.ids[0]})`,
    );
    expect(doc.pass).toBe(false);
  });

  test('Ctrl-C during the outage stops the writers and starts Redis again', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1800); // after the SIGKILL (1500 ms), before the restart
    await expect(
      run(['durability'], { ...OPTS, outageMs: 3000 }, { signal: controller.signal }),
    ).rejects.toThrow(/abort/i);
    expect(redisNodeRunning(env.LAB_DIR, 0)).toBe(true);
    expect(
      await untilWritesSucceed(lab.readLabState(env.LAB_DIR), { from: Date.now(), timeoutMs: 10000 }),
    ).not.toBeNull();
  });
});
