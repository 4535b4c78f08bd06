'use strict';
// REDIS_WAIT_REPLICAS against real Redis: a write is acknowledged (201) only once that many
// replicas have it (WAIT), else 503 redis-not-replicated within half REDIS_TIMEOUT_MS; on a
// Redis Cluster the WAIT goes, in one pipeline with the write, to the primary that took it.
const fs = require('node:fs');
const path = require('node:path');
const request = require('supertest');
const Redis = require('ioredis');
const { requireTool } = require('../../lib/core/tools');
const { freePort } = require('../../lib/core/ports');
const { startChild } = require('../../lib/core/processes');
const { redisServerArgs, redisCli, waitForRedis } = require('../../lib/core/redis-server');
const { testRedis, buildApp, tempDir, sleep } = require('./helpers');

let primary;
let replica;
let replicaPort;
let replicaDir;
beforeAll(async () => {
  primary = await testRedis();
  replicaPort = await freePort();
  replicaDir = tempDir('replica');
  replica = startChild(requireTool('redis-server'), [
    ...redisServerArgs({ port: replicaPort, dir: replicaDir }),
    '--replicaof',
    '127.0.0.1',
    String(primary.port),
  ]);
  await waitForRedis(replicaPort);
  // Counted by WAIT for a real write, which is what the tests need: a WAIT with no write of its
  // own is satisfied at once, and after a diskless sync the replica acknowledges writes a moment
  // after INFO already says online.
  const probe = new Redis(primary.port, '127.0.0.1');
  try {
    let counted = 0;
    for (let i = 0; i < 100 && counted < 1; i++) {
      await probe.set('wait-replicas:probe', String(i));
      counted = await probe.wait(1, 100);
    }
    if (counted < 1) throw new Error('the replica never acknowledged a write to its primary');
  } finally {
    probe.disconnect();
  }
}, 30000);
afterAll(async () => {
  await replica?.stop();
  await primary?.stop();
  fs.rmSync(replicaDir, { recursive: true, force: true });
});

test('REDIS_WAIT_REPLICAS=1 with one replica: 201, and the replica has the record', async () => {
  const svc = await buildApp({ REDIS_URL: primary.url, REDIS_WAIT_REPLICAS: '1' });
  try {
    const res = await request(svc.app).post('/api/records').send({ customer: 'wait' });
    expect(res.status).toBe(201);
    // WAIT returned: the replica acknowledged it, so it reads it at once.
    expect(await redisCli(replicaPort, undefined, 'get', `record:${res.body.id}`)).toContain(
      '"customer":"wait"',
    );
    const put = await request(svc.app).put(`/api/records/${res.body.id}`).send({ customer: 'again' });
    expect(put.status).toBe(200);
    expect((await request(svc.app).delete(`/api/records/${res.body.id}`)).status).toBe(204);
  } finally {
    await svc.close();
  }
});

test('REDIS_WAIT_REPLICAS=2 with one replica: 503 redis-not-replicated within half REDIS_TIMEOUT_MS', async () => {
  const svc = await buildApp({ REDIS_URL: primary.url, REDIS_WAIT_REPLICAS: '2', REDIS_TIMEOUT_MS: '400' });
  try {
    const begin = Date.now();
    const res = await request(svc.app).post('/api/records').send({ customer: 'lonely' });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body.type).toMatch(/redis-not-replicated$/);
    expect(res.body.detail).toMatch(/reached 1 of 2 Redis replica\(s\) within 200 ms/);
    expect(Date.now() - begin).toBeGreaterThanOrEqual(190);
  } finally {
    await svc.close();
  }
});

describe('on a Redis Cluster', () => {
  let cluster;
  beforeAll(async () => {
    cluster = await testRedis({ cluster: true });
  }, 60000);
  afterAll(() => cluster?.stop());

  test('every write waits for its own primary’s replica: 201 across all slots', async () => {
    const svc = await buildApp({ REDIS_CLUSTER_NODES: cluster.clusterNodes, REDIS_WAIT_REPLICAS: '1' });
    try {
      // A cluster just formed may still be syncing a replica: warm up until 10 writes in a row
      // are acknowledged (at most 15 s), then every write must be.
      for (let streak = 0, deadline = Date.now() + 15000; streak < 10 && Date.now() < deadline;) {
        streak = (await request(svc.app).post('/api/records').send({})).status === 201 ? streak + 1 : 0;
        if (!streak) await sleep(100);
      }
      for (let i = 0; i < 30; i++) {
        const res = await request(svc.app).post('/api/records').send({ n: i });
        if (res.status !== 201) throw new Error(`write ${i}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    } finally {
      await svc.close();
    }
  });
});

test('the variable is validated', () => {
  const { loadConfig } = require('../src/config');
  expect(() => loadConfig({ REDIS_WAIT_REPLICAS: 'all' })).toThrow(
    /^invalid configuration: REDIS_WAIT_REPLICAS /,
  );
  expect(loadConfig({}).redisWaitReplicas).toBe(0);
  expect(path.basename(__filename)).toBe('wait-replicas.test.js');
});
