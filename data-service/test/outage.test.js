'use strict';
// A Redis outage and recovery, against a real redis-server the test stops, freezes and restarts
// on the same port: requests fail fast (503 problem), readiness turns 503 with the reason, and
// both recover without any help.
const request = require('supertest');
const { requireTool } = require('../../lib/core/tools');
const { redisServerArgs, waitForRedis } = require('../../lib/core/redis-server');
const { startChild } = require('../../lib/core/processes');
const { freePort } = require('../../lib/core/ports');
const { buildApp, tempDir, serverTiming, waitFor } = require('./helpers');

let port;
let dir;
let redis;
let svc;

// A short REDIS_TIMEOUT_MS, so that "bounded by the timeout" can be asserted with more than a
// second of slack for a loaded machine, while an unbounded wait (an offline queue, a frozen Redis)
// would still blow the bound. One test keeps the default 1000 ms and checks the requirement as
// written: no request waits much more than 1 s.
const TIMEOUT_MS = 300;
// What a busy 2-core CI machine may add to a request on top of the Redis timeout.
const SLACK_MS = 1200;
const BOUND_MS = TIMEOUT_MS + SLACK_MS;

async function startRedis() {
  redis = startChild(requireTool('redis-server'), redisServerArgs({ port, dir }));
  await waitForRedis(port);
}

beforeAll(async () => {
  port = await freePort();
  dir = tempDir('outage');
  await startRedis();
  svc = await buildApp({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_TIMEOUT_MS: String(TIMEOUT_MS) });
});
afterAll(async () => {
  await svc?.close();
  if (redis) {
    redis.child.kill('SIGCONT');
    await redis.stop();
  }
  require('node:fs').rmSync(dir, { recursive: true, force: true });
});

const create = () => request(svc.app).post('/api/records').send({ customer: 'outage' });

async function timed(req) {
  const started = Date.now();
  const res = await req;
  return { res, ms: Date.now() - started };
}

test('Redis stopped: 503 fast, readyz 503; restarted on the same port: both recover', async () => {
  const created = await create();
  expect(created.status).toBe(201);
  const id = created.body.id;

  await redis.stop();
  for (let i = 0; i < 5; i++) {
    const { res, ms } = await timed(request(svc.app).get(`/api/records/${id}`));
    expect(res.status).toBe(503);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.body.type).toBe('urn:router-lab:problem:redis-unavailable');
    expect(serverTiming(res.headers['server-timing'])).toEqual({
      app: expect.any(Number),
      redis: expect.any(Number),
    });
  }
  const write = await timed(create());
  expect(write.res.status).toBe(503);
  expect(write.ms).toBeLessThan(BOUND_MS);

  const ready = await request(svc.app).get('/readyz');
  expect(ready.status).toBe(503);
  expect(ready.body.detail).toMatch(/redis/i);
  expect((await request(svc.app).get('/healthz')).status).toBe(200);
  expect((await request(svc.app).get('/api/pages/1k')).status).toBe(200);

  await startRedis();
  // Reconnect backoff is capped at 2 s; allow generous slack for a busy machine.
  await waitFor(
    async () => (await request(svc.app).get('/readyz')).status === 200,
    10000,
    'readiness recovery',
  );
  const again = await create();
  expect(again.status).toBe(201);
  expect((await request(svc.app).get(`/api/records/${again.body.id}`)).status).toBe(200);
  // The first record died with the non-persistent Redis: an honest 404, not an error.
  expect((await request(svc.app).get(`/api/records/${id}`)).status).toBe(404);
  expect(svc.logs.some((l) => l.msg === 'redis connection lost; reconnecting')).toBe(true);
  expect(svc.logs.filter((l) => l.msg === 'redis ready').length).toBeGreaterThanOrEqual(2);
});

test('Redis frozen (accepts nothing, answers nothing): requests end at REDIS_TIMEOUT_MS with 503', async () => {
  redis.child.kill('SIGSTOP');
  try {
    const results = await Promise.all([0, 1, 2, 3].map(() => timed(create())));
    for (const { res, ms } of results) {
      expect(res.status).toBe(503);
      expect(res.body.detail).toMatch(/timed out/i);
      // Ended by the command timeout (not by a fast failure), and not much later.
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(BOUND_MS);
    }
    const ready = await timed(request(svc.app).get('/readyz'));
    expect(ready.res.status).toBe(503);
    expect(ready.ms).toBeLessThan(BOUND_MS);
  } finally {
    redis.child.kill('SIGCONT');
  }
  await waitFor(
    async () => (await request(svc.app).get('/readyz')).status === 200,
    10000,
    'readiness recovery',
  );
  expect((await create()).status).toBe(201);
});

test('with the default REDIS_TIMEOUT_MS (1000 ms), a frozen Redis costs a request about 1 s, not more', async () => {
  const defaults = await buildApp({ REDIS_URL: `redis://127.0.0.1:${port}` });
  try {
    expect(defaults.config.redisTimeoutMs).toBe(1000);
    expect((await request(defaults.app).get('/readyz')).status).toBe(200);
    redis.child.kill('SIGSTOP');
    try {
      const { res, ms } = await timed(
        request(defaults.app).post('/api/records').send({ customer: 'default' }),
      );
      expect(res.status).toBe(503);
      expect(res.body.detail).toMatch(/timed out/i);
      expect(ms).toBeGreaterThanOrEqual(950);
      // The service's promise: no request waits much more than 1 s on an unavailable Redis.
      expect(ms).toBeLessThan(2500);
    } finally {
      redis.child.kill('SIGCONT');
    }
  } finally {
    await defaults.close();
  }
});
