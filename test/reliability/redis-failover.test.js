'use strict';
// Redis Cluster failover against a real lab (LAB_REDIS=cluster: 6 real redis-server processes):
// a primary SIGKILLed under the records workload; only 503s while its replica is promoted, the
// error window measured through the router, and the killed node back as the primary afterwards.
const lab = require('../../lib/lab/index');
const { redisCli } = require('../../lib/core/redis-server');
const { useLab, useTempDir, runScenarios } = require('../lab/helpers');

jest.setTimeout(180000);

describe('Redis Cluster failover (real cluster, real HAProxy, real k6)', () => {
  const lab$ = useLab({ LAB_REPLICAS: '1', LAB_REDIS: 'cluster' });
  const dir = useTempDir('rlab-failover-');

  test('a primary killed: 503s only, the window measured, the node handed its role back', async () => {
    const { ports } = lab.readLabState(lab$.env.LAB_DIR).redis;
    const rolesBefore = await Promise.all(ports.map((p) => redisCli(p, undefined, 'role')));
    const { doc } = await runScenarios(
      ['redis-failover', 'durability'],
      { rate: 50, failoverWindowMs: 6000, writers: 2, outageMs: 500 },
      { env: lab$.env, dir },
    );
    const failover = doc.scenarios.find((s) => s.name === 'redis-failover');
    const [c] = failover.cases;
    expect(Object.keys(c.load.errors).filter((s) => s !== '503')).toEqual([]);
    expect(c.figures.errorWindowMs).toBeGreaterThan(1000); // at least the cluster-node-timeout (2 s) in practice
    expect(c.figures.errorWindowMs).toBeLessThan(15000);
    expect(failover.verdict.pass).toBe(true);
    const rolesAfter = await Promise.all(ports.map((p) => redisCli(p, undefined, 'role')));
    expect(rolesAfter.map((r) => r.split('\n')[0])).toEqual(rolesBefore.map((r) => r.split('\n')[0]));
    // Durability through a failover, without WAIT: whatever was lost is reported, not promised.
    const durability = doc.scenarios.find((s) => s.name === 'durability');
    const [d] = durability.cases;
    expect(d.name).toBe('cluster failover, REDIS_WAIT_REPLICAS=0');
    expect(d.dataLost.acknowledged).toBeGreaterThan(50);
    expect(durability.verdict.pass).toBe(true);
    expect(durability.verdict.notes[0]).toMatch(
      /acknowledged writes lost in the failover \(asynchronous replication/,
    );
    // A standalone-only scenario on a cluster lab is skipped, not failed.
    const again = await runScenarios(['redis-kill'], { rate: 10, outageMs: 500 }, { env: lab$.env, dir });
    expect(again.doc.scenarios[0]).toMatchObject({
      cases: [],
      verdict: { pass: true, notes: [expect.stringMatching(/^skipped: needs LAB_REDIS=standalone/)] },
    });
  });
});

describe('durability through a failover with LAB_REDIS_WAIT_REPLICAS=1', () => {
  const lab$ = useLab({ LAB_REPLICAS: '1', LAB_REDIS: 'cluster', LAB_REDIS_WAIT_REPLICAS: '1' });
  const dir = useTempDir('rlab-failover-wait-');

  test('every write a replica confirmed survives the primary’s death', async () => {
    expect(lab.readLabState(lab$.env.LAB_DIR).redis.waitReplicas).toBe(1);
    const { doc } = await runScenarios(['durability'], { writers: 2, outageMs: 500 }, { env: lab$.env, dir });
    const [scenario] = doc.scenarios;
    const [c] = scenario.cases;
    expect(c.name).toBe('cluster failover, REDIS_WAIT_REPLICAS=1');
    expect(c.dataLost).toMatchObject({ count: 0 });
    expect(c.dataLost.acknowledged).toBeGreaterThan(50);
    expect(scenario.verdict).toMatchObject({ pass: true, reasons: [] });
  });
});
