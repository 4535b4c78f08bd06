'use strict';
// A Redis outage and recovery, against a real redis-server that the test stops, freezes and
// restarts on the same port. Requests must fail fast (503 problem, well under 1.5 s), readiness
// must turn 503 with the reason, and both must recover without any help.
const request = require('supertest');
const { requireTool } = require('../../scripts/lib/tools');
const { redisServerArgs, waitForRedis } = require('../../scripts/lib/redis-server');
const { startChild } = require('../../scripts/lib/processes');
const { freePort } = require('../../scripts/lib/ports');
const { buildApp, tempDir, sleep, serverTiming } = require('./helpers');

let port;
let dir;
let redis;
let svc;

async function startRedis() {
  redis = startChild(requireTool('redis-server'), redisServerArgs({ port, dir }));
  await waitForRedis(port);
}

async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return Date.now();
    await sleep(50);
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

beforeAll(async () => {
  port = await freePort();
  dir = tempDir('outage');
  await startRedis();
  svc = await buildApp({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_TIMEOUT_MS: '500' });
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
    expect(ms).toBeLessThan(1500);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.body.type).toBe('urn:router-lab:problem:redis-unavailable');
    expect(serverTiming(res.headers['server-timing'])).toEqual({
      app: expect.any(Number),
      redis: expect.any(Number),
    });
  }
  const write = await timed(create());
  expect(write.res.status).toBe(503);
  expect(write.ms).toBeLessThan(1500);

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
      expect(ms).toBeGreaterThanOrEqual(400);
      expect(ms).toBeLessThan(1500);
    }
    const ready = await timed(request(svc.app).get('/readyz'));
    expect(ready.res.status).toBe(503);
    expect(ready.ms).toBeLessThan(1500);
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
