'use strict';
// Graceful shutdown of the real process under load, the way a router sees it: a health checker
// polls /readyz and stops sending once it turns 503, like HAProxy taking the server out of
// rotation. No request may fail, the in-flight request must be answered, the process exits 0.
const http = require('node:http');
const { waitForPortClosed, isListening } = require('../../lib/core/ports');
const { testRedis, startService, sleep } = require('./helpers');

let redis;
beforeAll(async () => {
  redis = await testRedis();
});
afterAll(() => redis?.stop());

function get(port, path, agent) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** A POST whose body is sent in two halves, so it is in flight for as long as the test wants. */
function slowPost(port) {
  const body = Buffer.from(JSON.stringify({ customer: 'in-flight', note: 'x'.repeat(200) }));
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/records',
    agent: false,
    headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
  });
  const response = new Promise((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.subarray(0, 50));
  return { response, finish: () => req.end(body.subarray(50)), abandon: () => req.destroy() };
}

test('SIGTERM under load: readiness 503, drain, in-flight answered, zero failed, exit 0', async () => {
  // A drain of seconds, so that "readiness turned 503 early in the drain" and "a new request was
  // served during the drain" keep seconds of slack on a loaded machine.
  const DRAIN_MS = 4000;
  const service = await startService({
    REDIS_URL: redis.url,
    DRAIN_DELAY_MS: String(DRAIN_MS),
    SHUTDOWN_TIMEOUT_MS: '8000',
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const counts = { ok: 0, failed: 0, errors: [] };
  let routerStopped = false;
  let stoppedAt;

  const healthCheck = (async () => {
    while (!routerStopped) {
      const res = await get(service.port, '/readyz', false);
      if (res.status === 503) {
        routerStopped = true;
        stoppedAt = Date.now();
      } else await sleep(100);
    }
  })();
  const loops = Array.from({ length: 6 }, async (_, i) => {
    while (!routerStopped) {
      try {
        const res = await get(service.port, i % 2 ? '/api/pages/1k' : '/api/whoami', agent);
        if (res.status === 200) counts.ok += 1;
        else {
          counts.failed += 1;
          counts.errors.push(`status ${res.status}`);
        }
      } catch (err) {
        counts.failed += 1;
        counts.errors.push(err.message);
      }
    }
  });

  await sleep(500);
  const inFlight = slowPost(service.port);
  await sleep(100);
  const termAt = Date.now();
  service.child.kill('SIGTERM');

  await healthCheck;
  await Promise.all(loops);
  // Readiness turns at once: the health checker (polling every 100 ms) saw it in the first half
  // of the drain, leaving the router the rest to take the instance out of rotation.
  expect(stoppedAt - termAt).toBeLessThan(DRAIN_MS / 2);
  expect(counts.errors).toEqual([]);
  expect(counts.ok).toBeGreaterThan(50);

  // Draining: the listener still accepts and serves new connections.
  expect(await isListening(service.port)).toBe(true);
  expect((await get(service.port, '/api/pages/1', false)).status).toBe(200);
  const servedAt = Date.now();

  await waitForPortClosed(service.port, { timeoutMs: DRAIN_MS + 10000 });
  const closedAt = Date.now();
  // That request was served inside the drain, and the listener closed only after the drain.
  expect(servedAt - termAt).toBeLessThan(DRAIN_MS);
  expect(closedAt - termAt).toBeGreaterThanOrEqual(DRAIN_MS - 100);
  // Closed to new connections, but still waiting for the in-flight request.
  await sleep(200);
  expect(service.child.exitCode).toBeNull();

  inFlight.finish();
  const answer = await inFlight.response;
  expect(answer.status).toBe(201);
  expect(answer.headers.connection).toBe('close');
  const { id } = JSON.parse(answer.body);
  expect(await redis.cli('exists', `record:${id}`)).toBe('1');

  expect(await service.exited).toEqual({ code: 0, signal: null });
  agent.destroy();
  const messages = service.logs().map((l) => l.msg);
  expect(messages).toEqual(
    expect.arrayContaining([
      'shutting down: readiness is 503, draining',
      'closing listeners; finishing in-flight requests',
      'stopped',
    ]),
  );
  expect(service.logs().find((l) => l.msg === 'stopped').forced).toBe(false);
});

test('a request that never completes is cut after SHUTDOWN_TIMEOUT_MS and the process still exits 0', async () => {
  const service = await startService({
    REDIS_URL: redis.url,
    DRAIN_DELAY_MS: '0',
    SHUTDOWN_TIMEOUT_MS: '700',
  });
  const stuck = slowPost(service.port);
  stuck.response.catch(() => {});
  await sleep(200);
  const termAt = Date.now();
  service.child.kill('SIGTERM');
  expect(await service.exited).toEqual({ code: 0, signal: null });
  const took = Date.now() - termAt;
  expect(took).toBeGreaterThanOrEqual(600);
  // Cut by the timeout, not left to Node's 300 s request timeout.
  expect(took).toBeLessThan(10000);
  expect(service.logs().find((l) => l.msg === 'stopped').forced).toBe(true);
  stuck.abandon();
});

test('idle keep-alive connections are closed when the listeners close', async () => {
  const service = await startService({ REDIS_URL: redis.url, DRAIN_DELAY_MS: '300' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const first = await get(service.port, '/api/pages/1', agent);
  expect(first.headers.connection).toBe('keep-alive');
  // KEEP_ALIVE_TIMEOUT_MS (65 s by default) is what the listener announces.
  expect(first.headers['keep-alive']).toBe('timeout=65');
  const socket = Object.values(agent.freeSockets)[0][0];
  const closed = new Promise((resolve) => socket.once('close', resolve));
  const termAt = Date.now();
  service.child.kill('SIGTERM');
  await closed;
  // Closed by the service after the drain delay, not after its 65 s keep-alive timeout.
  expect(Date.now() - termAt).toBeLessThan(10000);
  expect(await service.exited).toEqual({ code: 0, signal: null });
  agent.destroy();
});

test('SIGINT (no router left to drain from) skips the drain delay, and still answers in flight', async () => {
  const service = await startService({ REDIS_URL: redis.url, DRAIN_DELAY_MS: '5000' });
  const inFlight = slowPost(service.port);
  await sleep(200);
  const intAt = Date.now();
  service.child.kill('SIGINT');
  await sleep(100);
  inFlight.finish();
  expect((await inFlight.response).status).toBe(201);
  expect(await service.exited).toEqual({ code: 0, signal: null });
  // Well under the 5 s a SIGTERM would have drained.
  expect(Date.now() - intAt).toBeLessThan(2500);
  expect(service.logs().find((l) => l.msg === 'shutting down: readiness is 503, draining')).toMatchObject({
    signal: 'SIGINT',
    drainDelayMs: 0,
  });
});
