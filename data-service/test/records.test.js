'use strict';
// Records CRUD and every bad input, in-process against a real redis-server. Bad inputs must get
// a 4xx problem that says what was wrong, and must not write anything to Redis.
const request = require('supertest');
const { testRedis, buildApp, serverTiming } = require('./helpers');

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let redis;
let svc;
beforeAll(async () => {
  redis = await testRedis();
  svc = await buildApp({ REDIS_URL: redis.url, MAX_BODY_BYTES: '1024' });
});
afterAll(async () => {
  await svc?.close();
  await redis?.stop();
});

const dbsize = async () => Number(await redis.cli('dbsize'));
const digest = async () => redis.cli('debug', 'digest');

function expectProblem(res, status, kind) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json');
  expect(res.body).toEqual({
    type: `urn:router-lab:problem:${kind}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
  });
  expect(serverTiming(res.headers['server-timing']).app).toBeGreaterThanOrEqual(0);
}

describe('records CRUD', () => {
  test('create, read, replace, delete: each step visible in Redis', async () => {
    const created = await request(svc.app).post('/api/records').send({ customer: 'c-1', balance: 10 });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.stringMatching(ID), customer: 'c-1', balance: 10 });
    const { id } = created.body;
    expect(created.headers.location).toBe(`/api/records/${id}`);
    expect(JSON.parse(await redis.cli('get', `record:${id}`))).toEqual(created.body);
    const timing = serverTiming(created.headers['server-timing']);
    expect(timing.redis).toBeGreaterThan(0);
    expect(timing.app).toBeGreaterThanOrEqual(timing.redis);

    const read = await request(svc.app).get(`/api/records/${id}`);
    expect(read.status).toBe(200);
    expect(read.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(read.body).toEqual(created.body);
    expect(serverTiming(read.headers['server-timing']).redis).toBeGreaterThan(0);

    const replaced = await request(svc.app).put(`/api/records/${id}`).send({ customer: 'c-1', balance: 25 });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id, customer: 'c-1', balance: 25 });
    expect(JSON.parse(await redis.cli('get', `record:${id}`))).toEqual({ id, customer: 'c-1', balance: 25 });

    const samePathId = await request(svc.app).put(`/api/records/${id}`).send({ id, balance: 30 });
    expect(samePathId.status).toBe(200);
    expect(samePathId.body).toEqual({ id, balance: 30 });

    const deleted = await request(svc.app).delete(`/api/records/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(serverTiming(deleted.headers['server-timing']).redis).toBeGreaterThan(0);
    expect(await redis.cli('exists', `record:${id}`)).toBe('0');
  });

  // Any lower-case RFC 9562 UUID is an id (versions 1 to 8): one the service never made is absent.
  test.each([
    ['v4', '00000000-0000-4000-8000-000000000000'],
    ['v1', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'],
    ['v7', '01936f8e-8f5a-7c3d-9b2e-4a1f0c6d8e21'],
    ['v8', '2489e9ad-2ee2-8e00-8ec9-32d5f69181c0'],
  ])('absent records (%s id): GET, PUT and DELETE answer 404 and PUT creates nothing', async (_v, id) => {
    const before = await dbsize();
    expectProblem(await request(svc.app).get(`/api/records/${id}`), 404, 'record-not-found');
    expectProblem(await request(svc.app).put(`/api/records/${id}`).send({ a: 1 }), 404, 'record-not-found');
    expectProblem(await request(svc.app).delete(`/api/records/${id}`), 404, 'record-not-found');
    expect(await dbsize()).toBe(before);
  });

  test('every record gets its own id', async () => {
    const ids = new Set();
    for (let i = 0; i < 20; i++) ids.add((await request(svc.app).post('/api/records').send({ i })).body.id);
    expect(ids.size).toBe(20);
  });

  test('charset=utf-8 and unicode content round-trip exactly', async () => {
    const created = await request(svc.app)
      .post('/api/records')
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ name: 'Zoë 🏦', nested: { list: [1, 'two', null] } }));
    expect(created.status).toBe(201);
    const read = await request(svc.app).get(`/api/records/${created.body.id}`);
    expect(read.body).toEqual({ id: created.body.id, name: 'Zoë 🏦', nested: { list: [1, 'two', null] } });
  });
});

describe('bad input: a clear 4xx and nothing written to Redis', () => {
  const existingId = () => svc.existingId;
  beforeAll(async () => {
    svc.existingId = (await request(svc.app).post('/api/records').send({ keep: true })).body.id;
  });

  const cases = [
    ['malformed JSON', 400, 'invalid-json', () => ['post', '/api/records', '{"a":', 'application/json']],
    ['empty body', 400, 'invalid-json', () => ['post', '/api/records', '', 'application/json']],
    [
      'PUT empty body',
      400,
      'invalid-json',
      () => ['put', `/api/records/${existingId()}`, '', 'application/json'],
    ],
    ['JSON array', 400, 'not-an-object', () => ['post', '/api/records', '[1,2]', 'application/json']],
    ['JSON number', 400, 'not-an-object', () => ['post', '/api/records', '42', 'application/json']],
    ['JSON null', 400, 'not-an-object', () => ['post', '/api/records', 'null', 'application/json']],
    [
      'text/plain body',
      415,
      'unsupported-media-type',
      () => ['post', '/api/records', '{"a":1}', 'text/plain'],
    ],
    [
      'form body',
      415,
      'unsupported-media-type',
      () => ['post', '/api/records', 'a=1', 'application/x-www-form-urlencoded'],
    ],
    ['no Content-Type', 415, 'unsupported-media-type', () => ['post', '/api/records', undefined, undefined]],
    [
      'latin1 charset',
      415,
      'unsupported-media-type',
      () => ['post', '/api/records', '{"a":1}', 'application/json; charset=latin1'],
    ],
    [
      'body over MAX_BODY_BYTES',
      413,
      'body-too-large',
      () => ['post', '/api/records', JSON.stringify({ a: 'x'.repeat(2000) }), 'application/json'],
    ],
    [
      'client-chosen id on POST',
      400,
      'bad-request',
      () => ['post', '/api/records', '{"id":"mine"}', 'application/json'],
    ],
    [
      'PUT malformed JSON',
      400,
      'invalid-json',
      () => ['put', `/api/records/${existingId()}`, '{', 'application/json'],
    ],
    [
      'PUT array',
      400,
      'not-an-object',
      () => ['put', `/api/records/${existingId()}`, '[]', 'application/json'],
    ],
    [
      'PUT text/plain',
      415,
      'unsupported-media-type',
      () => ['put', `/api/records/${existingId()}`, '{}', 'text/plain'],
    ],
    [
      'PUT over MAX_BODY_BYTES',
      413,
      'body-too-large',
      () => [
        'put',
        `/api/records/${existingId()}`,
        JSON.stringify({ a: 'x'.repeat(2000) }),
        'application/json',
      ],
    ],
    [
      'PUT with a different id in the body',
      400,
      'bad-request',
      () => [
        'put',
        `/api/records/${existingId()}`,
        '{"id":"00000000-0000-4000-8000-000000000000"}',
        'application/json',
      ],
    ],
    ['GET bad id', 400, 'invalid-id', () => ['get', '/api/records/not-a-uuid']],
    ['GET upper-case id', 400, 'invalid-id', () => ['get', `/api/records/${existingId().toUpperCase()}`]],
    // RFC 9562's version nibble is 1 to 8 and its variant 10xx: the nil UUID and others are not ids.
    ['GET nil UUID', 400, 'invalid-id', () => ['get', '/api/records/00000000-0000-0000-0000-000000000000']],
    ['GET version 9', 400, 'invalid-id', () => ['get', '/api/records/01936f8e-8f5a-9c3d-9b2e-4a1f0c6d8e21']],
    [
      'GET other variant',
      400,
      'invalid-id',
      () => ['get', '/api/records/01936f8e-8f5a-7c3d-cb2e-4a1f0c6d8e21'],
    ],
    ['GET key-injection id', 400, 'invalid-id', () => ['get', `/api/records/${encodeURIComponent('*')}`]],
    ['PUT bad id', 400, 'invalid-id', () => ['put', '/api/records/123', '{"a":1}', 'application/json']],
    ['DELETE bad id', 400, 'invalid-id', () => ['delete', `/api/records/${'a'.repeat(300)}`]],
    ['malformed percent-encoding', 400, 'bad-request', () => ['get', '/api/records/%E0%A4%A']],
    ['unknown path', 404, 'not-found', () => ['get', '/api/nothing']],
    [
      'unknown path with a body',
      404,
      'not-found',
      () => ['post', '/api/recordz', '{"a":1}', 'application/json'],
    ],
    [
      'PATCH a record',
      405,
      'method-not-allowed',
      () => ['patch', `/api/records/${existingId()}`, '{"a":1}', 'application/json'],
    ],
    ['GET the collection', 405, 'method-not-allowed', () => ['get', '/api/records']],
    ['DELETE the collection', 405, 'method-not-allowed', () => ['delete', '/api/records']],
    ['POST to a page', 405, 'method-not-allowed', () => ['post', '/api/pages/1k', '{}', 'application/json']],
    ['DELETE /readyz', 405, 'method-not-allowed', () => ['delete', '/readyz']],
  ];

  test.each(cases)('%s → %i %s', async (_name, status, kind, build) => {
    const [method, url, body, type] = build();
    const before = await digest();
    let req = request(svc.app)[method](url);
    if (type) req = req.set('Content-Type', type);
    const res = await (body === undefined ? req : req.send(body));
    expectProblem(res, status, kind);
    expect(res.body.detail.length).toBeGreaterThan(10);
    if (status === 405) expect(res.headers.allow).toMatch(/^[A-Z, ]+$/);
    expect(await digest()).toBe(before);
  });

  test('the problem detail names what was wrong', async () => {
    const tooBig = await request(svc.app)
      .post('/api/records')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ a: 'x'.repeat(2000) }));
    expect(tooBig.body.detail).toMatch(/limit is 1024 bytes \(MAX_BODY_BYTES\)/);
    const badId = await request(svc.app).get('/api/records/nope');
    expect(badId.body.detail).toMatch(/"nope"/);
    const wrongType = await request(svc.app).post('/api/records').set('Content-Type', 'text/plain').send('x');
    expect(wrongType.body.detail).toMatch(/application\/json, got "text\/plain"/);
    const notObject = await request(svc.app)
      .post('/api/records')
      .set('Content-Type', 'application/json')
      .send('[]');
    expect(notObject.body.detail).toBe('the body must be a JSON object, got an array');
    const text = await request(svc.app)
      .post('/api/records')
      .set('Content-Type', 'application/json')
      .send('"s"');
    expect(text.body.detail).toBe('the body must be a JSON object, got a string');
    const badPath = await request(svc.app).get('/api/records/%E0%A4%A');
    expect(badPath.body.detail).toMatch(/^the path is not valid: /);
    const method = await request(svc.app).patch('/api/records');
    expect(method.headers.allow).toBe('POST');
  });
});

describe('metrics', () => {
  test('requests are counted by route template and status, Redis commands by command', async () => {
    await request(svc.app).get('/api/records/00000000-0000-4000-8000-000000000001');
    await request(svc.app).get('/api/records/bad');
    await request(svc.app).get('/no/such/path/1');
    const text = await svc.metrics.registry.metrics();
    expect(text).toMatch(
      /http_server_request_duration_seconds_count\{method="GET",route="\/api\/records\/:id",status="404"\} \d+/,
    );
    expect(text).toMatch(
      /http_server_request_duration_seconds_count\{method="GET",route="\/api\/records\/:id",status="400"\} \d+/,
    );
    expect(text).toMatch(
      /http_server_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} \d+/,
    );
    expect(text).toMatch(
      /http_server_request_duration_seconds_count\{method="POST",route="\/api\/records",status="413"\} \d+/,
    );
    expect(text).toMatch(/redis_command_duration_seconds_count\{command="get",outcome="ok"\} \d+/);
    expect(text).toMatch(/redis_command_duration_seconds_count\{command="set",outcome="ok"\} \d+/);
    expect(text).not.toMatch(/no\/such\/path/);
    expect(text).not.toMatch(/route="\/api\/records\/0000/);
  });
});
