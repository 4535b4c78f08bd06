'use strict';
// REDIS_PASSWORD against a standalone redis-server that requires it.
const request = require('supertest');
const { testRedis, buildApp } = require('./helpers');

const PASSWORD = 'standalone-secret';
// A short Redis timeout where the answer time is asserted: the bound keeps more than a second of
// slack for a loaded machine and is still far below an unbounded wait (reconnecting forever).
const TIMEOUT_MS = 300;
const BOUND_MS = TIMEOUT_MS + 1200;

let redis;
beforeAll(async () => {
  redis = await testRedis({ password: PASSWORD });
});
afterAll(() => redis?.stop());

test('with the right password, records are stored', async () => {
  const svc = await buildApp({ REDIS_URL: redis.url, REDIS_PASSWORD: PASSWORD });
  try {
    expect((await request(svc.app).get('/readyz')).status).toBe(200);
    const created = await request(svc.app).post('/api/records').send({ a: 1 });
    expect(created.status).toBe(201);
    expect(await redis.cli('exists', `record:${created.body.id}`)).toBe('1');
  } finally {
    await svc.close();
  }
});

test.each([
  ['a wrong password', { REDIS_PASSWORD: 'wrong' }],
  ['no password', {}],
])('with %s: not ready and 503 for records, fast, nothing stored', async (_name, env) => {
  const svc = await buildApp({ REDIS_URL: redis.url, REDIS_TIMEOUT_MS: String(TIMEOUT_MS), ...env });
  try {
    const ready = await request(svc.app).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.type).toBe('urn:router-lab:problem:redis-unavailable');
    const started = Date.now();
    const res = await request(svc.app).post('/api/records').send({ a: 1 });
    expect(res.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
    expect(await redis.cli('dbsize')).toBe('1');
  } finally {
    await svc.close();
  }
});
