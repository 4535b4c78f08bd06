'use strict';
// Redis Cluster mode against a real local cluster of 6 redis-server processes (3 primaries +
// 3 replicas, formed with redis-cli --cluster create), with AUTH, and AUTH failures reported.
const request = require('supertest');
const { redisCli } = require('../../lib/core/redis-server');
const { testRedis, buildApp, startService, serverTiming } = require('./helpers');

const PASSWORD = 'lab-cluster-secret';

let cluster;
beforeAll(async () => {
  cluster = await testRedis({ cluster: true, password: PASSWORD });
}, 60000);
afterAll(() => cluster?.stop());

async function primaries() {
  const roles = await Promise.all(cluster.ports.map((p) => redisCli(p, PASSWORD, 'role')));
  return cluster.ports.filter((_, i) => roles[i].startsWith('master'));
}

describe('in-process app on the cluster', () => {
  let svc;
  beforeAll(async () => {
    svc = await buildApp({ REDIS_CLUSTER_NODES: cluster.clusterNodes, REDIS_PASSWORD: PASSWORD });
  });
  afterAll(() => svc?.close());

  test('CRUD works and records spread over all three primaries', async () => {
    const ids = [];
    for (let i = 0; i < 60; i++) {
      const res = await request(svc.app)
        .post('/api/records')
        .send({ customer: `c-${i}` });
      expect(res.status).toBe(201);
      expect(serverTiming(res.headers['server-timing']).redis).toBeGreaterThan(0);
      ids.push(res.body.id);
    }
    const primaryPorts = await primaries();
    expect(primaryPorts).toHaveLength(3);
    const sizes = await Promise.all(
      primaryPorts.map(async (p) => Number(await redisCli(p, PASSWORD, 'dbsize'))),
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(60);
    for (const size of sizes) expect(size).toBeGreaterThan(0);

    const read = await request(svc.app).get(`/api/records/${ids[7]}`);
    expect(read.body).toEqual({ id: ids[7], customer: 'c-7' });
    expect((await request(svc.app).put(`/api/records/${ids[7]}`).send({ customer: 'c-7b' })).status).toBe(
      200,
    );
    expect((await request(svc.app).get(`/api/records/${ids[7]}`)).body.customer).toBe('c-7b');
    for (const id of ids) expect((await request(svc.app).delete(`/api/records/${id}`)).status).toBe(204);
    expect((await request(svc.app).get(`/api/records/${ids[0]}`)).status).toBe(404);
  });

  test('readyz is 200 on a healthy cluster', async () => {
    expect((await request(svc.app).get('/readyz')).status).toBe(200);
  });
});

test('the real process serves records from the cluster', async () => {
  const service = await startService({
    REDIS_CLUSTER_NODES: cluster.clusterNodes,
    REDIS_PASSWORD: PASSWORD,
    DRAIN_DELAY_MS: '0',
  });
  try {
    const created = await fetch(`${service.base}/api/records`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ customer: 'process' }),
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const read = await fetch(`${service.base}/api/records/${id}`);
    expect(await read.json()).toEqual({ id, customer: 'process' });
    expect((await fetch(`${service.base}/readyz`)).status).toBe(200);
  } finally {
    expect((await service.stop()).code).toBe(0);
  }
});

test('a wrong password: not ready, and record calls answer 503 naming the cause', async () => {
  const svc = await buildApp({ REDIS_CLUSTER_NODES: cluster.clusterNodes, REDIS_PASSWORD: 'wrong' });
  try {
    const ready = await request(svc.app).get('/readyz');
    expect(ready.status).toBe(503);
    const res = await request(svc.app).get('/api/records/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(503);
    expect(res.body.type).toBe('urn:router-lab:problem:redis-unavailable');
  } finally {
    await svc.close();
  }
});

test('a primary dies: its slots fail fast with 503 during the failover, then the service recovers by itself', async () => {
  // A short Redis timeout, so "fail fast" can be asserted with a bound that leaves a loaded
  // machine more than a second of slack and is still shorter than the failover itself (checked
  // below): a request that waited for the failover instead of failing would exceed it.
  const BOUND_MS = 2000;
  const svc = await buildApp({
    REDIS_CLUSTER_NODES: cluster.clusterNodes,
    REDIS_PASSWORD: PASSWORD,
    REDIS_TIMEOUT_MS: '300',
  });
  try {
    // Records on every primary, so some live on the one that dies.
    const ids = [];
    for (let i = 0; i < 30; i++) ids.push((await request(svc.app).post('/api/records').send({ i })).body.id);
    await new Promise((resolve) => setTimeout(resolve, 300)); // let the replicas catch up
    const [victim] = await primaries();
    await cluster.children[cluster.ports.indexOf(victim)].stop();

    const started = Date.now();
    const statuses = new Set();
    let slowest = 0;
    let recoveredAt;
    while (Date.now() - started < 30000) {
      const round = await Promise.all(
        ids.map(async (id) => {
          const t0 = Date.now();
          const res = await request(svc.app).get(`/api/records/${id}`);
          return { status: res.status, ms: Date.now() - t0 };
        }),
      );
      for (const { status, ms } of round) {
        statuses.add(status);
        slowest = Math.max(slowest, ms);
      }
      if (round.every((r) => r.status === 200)) {
        recoveredAt = Date.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recoveredAt).toBeDefined();
    expect(slowest).toBeLessThan(BOUND_MS);
    // The bound means something: the failover (cluster-node-timeout is 2 s) lasted longer.
    expect(recoveredAt - started).toBeGreaterThan(BOUND_MS);
    // The failover was seen, and only as 503s, never 500s.
    expect(statuses.has(503)).toBe(true);
    expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect((await request(svc.app).post('/api/records').send({ after: 'failover' })).status).toBe(201);
  } finally {
    await svc.close();
  }
}, 60000);
