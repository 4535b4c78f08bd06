'use strict';
// Pages, whoami, health, readiness and metrics through the app and its listener. Pages must not need
// Redis: they are served by an app whose Redis is down. Page sizes and the fast path: pages.unit.test.js.
const request = require('supertest');
const { parsePageSize, MAX_PAGE_BYTES } = require('../src/routes/pages');
const { testRedis, buildApp, serverTiming } = require('./helpers');

describe('with Redis down', () => {
  // A short Redis timeout so the fail-fast bound below keeps more than a second of slack for a
  // loaded machine (outage.test.js checks the default 1000 ms).
  const TIMEOUT_MS = 300;
  let svc;
  beforeAll(async () => {
    svc = await buildApp({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_TIMEOUT_MS: String(TIMEOUT_MS) });
  });
  afterAll(() => svc.close());

  test.each(['1', '1024', '1k', '4k', '64k', '1m'])(
    'GET /api/pages/%s returns exactly that many bytes with app time and no Redis time',
    async (size) => {
      const res = await request(svc.app).get(`/api/pages/${size}`).buffer(true).parse(binary);
      expect(res.status).toBe(200);
      const bytes = parsePageSize(size);
      expect(res.body.length).toBe(bytes);
      expect(res.headers['content-length']).toBe(String(bytes));
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers.etag).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
      const timing = serverTiming(res.headers['server-timing']);
      expect(timing.app).toBeGreaterThanOrEqual(0);
      expect(timing.redis).toBeUndefined();
    },
  );

  test('page bodies are printable text lines', async () => {
    const res = await request(svc.app).get('/api/pages/128');
    expect(res.text).toMatch(/^[0-9a-zA-Z.]{63}\n[0-9a-zA-Z.]{63}\n$/);
  });

  test('HEAD of a page has the length and no body', async () => {
    const res = await request(svc.app).head('/api/pages/4k');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('4096');
    expect(res.headers['server-timing']).toMatch(/^app;dur=\d+\.\d{3}$/);
  });

  test('a page over 1 MiB is a 400 problem', async () => {
    const res = await request(svc.app).get(`/api/pages/${MAX_PAGE_BYTES + 1}`);
    expect(res.status).toBe(400);
    expect(res.body.type).toBe('urn:router-lab:problem:invalid-page-size');
    expect(res.headers['server-timing']).toMatch(/^app;dur=/);
  });

  test('healthz stays 200; readyz is 503 and says Redis is the reason', async () => {
    expect((await request(svc.app).get('/healthz')).status).toBe(200);
    const ready = await request(svc.app).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.headers['content-type']).toBe('application/problem+json');
    expect(ready.body.type).toBe('urn:router-lab:problem:redis-unavailable');
    expect(ready.body.detail).toMatch(/Redis connection is (connecting|reconnecting)/);
  });

  test('record calls fail fast with 503 and Retry-After, never 500', async () => {
    const started = Date.now();
    const res = await request(svc.app).get('/api/records/00000000-0000-4000-8000-000000000000');
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1200);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body.type).toBe('urn:router-lab:problem:redis-unavailable');
    expect(serverTiming(res.headers['server-timing']).redis).toBeGreaterThanOrEqual(0);
  });
});

describe('with Redis up', () => {
  let redis;
  let svc;
  beforeAll(async () => {
    redis = await testRedis();
    svc = await buildApp({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await svc?.close();
    await redis?.stop();
  });

  test('readyz is 200 while Redis answers and 503 once shutting down', async () => {
    const ready = await request(svc.app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', redis: 'ok' });
    svc.lifecycle.shuttingDown = true;
    try {
      const draining = await request(svc.app).get('/readyz');
      expect(draining.status).toBe(503);
      expect(draining.body.type).toBe('urn:router-lab:problem:shutting-down');
      expect((await request(svc.app).get('/healthz')).status).toBe(200);
    } finally {
      svc.lifecycle.shuttingDown = false;
    }
  });

  test('responses ask to close the connection once the listeners close', async () => {
    const page = () => request(svc.app).get('/api/pages/1').set('Connection', 'keep-alive');
    expect((await page()).headers.connection).toBe('keep-alive');
    svc.lifecycle.closing = true;
    try {
      expect((await page()).headers.connection).toBe('close');
    } finally {
      svc.lifecycle.closing = false;
    }
  });

  test('whoami reports the instance, a plain connection and only the forwarding headers present', async () => {
    const res = await request(svc.app)
      .get('/api/whoami')
      .set('X-Forwarded-For', '203.0.113.7')
      .set('X-Forwarded-Proto', 'https')
      .set('Forwarded', 'for=203.0.113.7;proto=https')
      .set('X-SSL-Client-DER', 'MIIB')
      .set('X-Other', 'ignored');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      instance: 'test-instance',
      tls: false,
      tlsServername: null,
      httpVersion: '1.1',
      peer: { address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/), port: expect.any(Number) },
      forwarded: {
        'x-forwarded-for': '203.0.113.7',
        'x-forwarded-proto': 'https',
        forwarded: 'for=203.0.113.7;proto=https',
      },
      sslHeaders: { 'x-ssl-client-der': 'MIIB' },
    });
    expect(res.headers['server-timing']).toMatch(/^app;dur=/);
  });

  test('metrics expose the request histogram, the Redis histogram and process metrics', async () => {
    await request(svc.app).get('/api/pages/1k');
    await request(svc.app).get('/readyz');
    const res = await request(svc.app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toMatch(
      /http_server_request_duration_seconds_bucket\{method="GET",route="\/api\/pages\/:size",status="200",le="0\.001"\} [1-9]/,
    );
    expect(res.text).toMatch(/redis_command_duration_seconds_count\{command="ping",outcome="ok"\} [1-9]/);
    expect(res.headers['server-timing']).toMatch(/^app;dur=/);
  });
});

function binary(res, callback) {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

describe('the page fast path in front of Express', () => {
  describe('through the listener', () => {
    let svc;
    beforeAll(async () => {
      svc = await buildApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    });
    afterAll(() => svc.close());

    test('answers like the Express route: same status, headers and body, counted under the route', async () => {
      const fast = await request(svc.listener).get('/api/pages/64k').buffer(true).parse(binary);
      const viaExpress = await request(svc.app).get('/api/pages/64k').buffer(true).parse(binary);
      expect(fast.status).toBe(200);
      expect(fast.body.equals(viaExpress.body)).toBe(true);
      const names = (res) => Object.keys(res.headers).sort();
      expect(names(fast)).toEqual(names(viaExpress));
      for (const name of ['content-type', 'content-length'])
        expect(fast.headers[name]).toBe(viaExpress.headers[name]);
      expect(fast.headers['server-timing']).toMatch(/^app;dur=\d+\.\d{3}$/);
      const head = await request(svc.listener).head('/api/pages/1k');
      expect(head.headers['content-length']).toBe('1024');
      const text = await svc.metrics.registry.metrics();
      expect(text).toMatch(
        /http_server_request_duration_seconds_count\{method="GET",route="\/api\/pages\/:size",status="200"\} 2/,
      );
      expect(text).toMatch(
        /http_server_request_duration_seconds_count\{method="HEAD",route="\/api\/pages\/:size",status="200"\} 1/,
      );
    });

    test('leaves everything else to Express, errors included', async () => {
      expect((await request(svc.listener).get('/api/pages/1k?x=1')).status).toBe(200);
      expect((await request(svc.listener).get('/API/PAGES/1k')).status).toBe(200);
      const tooBig = await request(svc.listener).get('/api/pages/2m');
      expect(tooBig.status).toBe(400);
      expect(tooBig.body.type).toBe('urn:router-lab:problem:invalid-page-size');
      expect((await request(svc.listener).post('/api/pages/1k')).status).toBe(405);
      expect((await request(svc.listener).get('/api/whoami')).body.instance).toBe('test-instance');
    });

    test('closes the connection once the listeners close, like every other response', async () => {
      svc.lifecycle.closing = true;
      try {
        const res = await request(svc.listener).get('/api/pages/1k').set('Connection', 'keep-alive');
        expect(res.headers.connection).toBe('close');
      } finally {
        svc.lifecycle.closing = false;
      }
    });
  });
});

describe('request logging', () => {
  test('off at info, one line per request at debug', async () => {
    const quiet = await buildApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    const chatty = await buildApp({ REDIS_URL: 'redis://127.0.0.1:1' }, { logLevel: 'debug' });
    try {
      const before = quiet.logs.length;
      await request(quiet.listener).get('/api/pages/1k');
      await request(quiet.app).get('/api/whoami');
      expect(quiet.logs.slice(before).filter((l) => l.msg === 'request')).toEqual([]);

      await request(chatty.listener).get('/api/pages/1k');
      await request(chatty.app).get('/api/records/nope');
      const lines = chatty.logs.filter((l) => l.msg === 'request');
      expect(lines).toEqual([
        expect.objectContaining({ level: 20, method: 'GET', route: '/api/pages/:size', status: 200 }),
        expect.objectContaining({
          level: 20,
          method: 'GET',
          route: '/api/records/:id',
          status: 400,
          url: '/api/records/nope',
        }),
      ]);
      expect(lines[0].ms).toBeGreaterThanOrEqual(0);
    } finally {
      await quiet.close();
      await chatty.close();
    }
  });
});
