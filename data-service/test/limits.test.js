'use strict';
// The service's own limits for clients that reach it without the router: slow headers and bodies
// (slowloris) get 408 and close (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS), MAX_CONNECTIONS caps
// connections per listener, and an idle keep-alive connection lives until KEEP_ALIVE_TIMEOUT_MS.
const net = require('node:net');
const { testRedis, startService, sleep } = require('./helpers');

let redis;
let service;
beforeAll(async () => {
  redis = await testRedis();
  service = await startService({
    REDIS_URL: redis.url,
    HEADERS_TIMEOUT_MS: '500',
    REQUEST_TIMEOUT_MS: '1000',
    MAX_CONNECTIONS: '4',
  });
});
afterAll(async () => {
  await service?.stop();
  await redis?.stop();
});

/** A raw connection that keeps what it receives and when it closed. */
function rawConnection(port) {
  const socket = net.connect(port, '127.0.0.1');
  const conn = { socket, received: '', closedAt: null, openedAt: Date.now() };
  socket.on('data', (d) => (conn.received += d));
  socket.on('error', () => {});
  conn.closed = new Promise((resolve) =>
    socket.on('close', () => {
      conn.closedAt = Date.now();
      resolve();
    }),
  );
  return conn;
}

/** Writes `line` every `everyMs` until the connection closes (or `maxMs` passes). */
function trickle(conn, line, { everyMs = 100, maxMs = 5000 } = {}) {
  const timer = setInterval(() => {
    if (conn.socket.destroyed || Date.now() - conn.openedAt > maxMs) clearInterval(timer);
    else conn.socket.write(line);
  }, everyMs);
  return () => clearInterval(timer);
}

test('slow headers (slowloris) get 408 and the connection closed after HEADERS_TIMEOUT_MS', async () => {
  const conn = rawConnection(service.port);
  conn.socket.write('GET /api/pages/1 HTTP/1.1\r\nHost: x\r\n');
  const stop = trickle(conn, 'X-Slow: 1\r\n');
  await conn.closed;
  stop();
  expect(conn.received).toMatch(/^HTTP\/1\.1 408 /);
  expect(conn.closedAt - conn.openedAt).toBeGreaterThanOrEqual(450);
  expect(conn.closedAt - conn.openedAt).toBeLessThan(2500);
});

test('a slow body gets 408 and the connection closed after REQUEST_TIMEOUT_MS', async () => {
  const conn = rawConnection(service.port);
  conn.socket.write(
    'POST /api/records HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
  );
  const stop = trickle(conn, ' ');
  await conn.closed;
  stop();
  expect(conn.received).toMatch(/^HTTP\/1\.1 408 /);
  expect(conn.closedAt - conn.openedAt).toBeGreaterThanOrEqual(950);
  expect(conn.closedAt - conn.openedAt).toBeLessThan(3000);
});

test('an idle keep-alive connection outlives HEADERS_TIMEOUT_MS and still serves', async () => {
  const conn = rawConnection(service.port);
  conn.socket.write('GET /api/pages/1 HTTP/1.1\r\nHost: x\r\n\r\n');
  await sleep(1500);
  conn.socket.write('GET /api/pages/1 HTTP/1.1\r\nHost: x\r\n\r\n');
  await sleep(200);
  expect(conn.received.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
  expect(conn.closedAt).toBeNull();
  conn.socket.destroy();
  await conn.closed;
});

test('MAX_CONNECTIONS: connections beyond the cap are closed at once, the others keep serving', async () => {
  const held = Array.from({ length: 4 }, () => rawConnection(service.port));
  for (const c of held) c.socket.write('GET /api/pages/1 HTTP/1.1\r\nHost: x\r\n\r\n');
  await sleep(300);
  const extra = rawConnection(service.port);
  extra.socket.write('GET /api/pages/1 HTTP/1.1\r\nHost: x\r\n\r\n');
  await extra.closed;
  expect(extra.received).toBe('');
  for (const c of held) expect(c.received).toMatch(/^HTTP\/1\.1 200 /);
  for (const c of held) c.socket.destroy();
  await Promise.all(held.map((c) => c.closed));
  await sleep(100);
  const after = rawConnection(service.port);
  after.socket.write('GET /api/pages/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await after.closed;
  expect(after.received).toMatch(/^HTTP\/1\.1 200 /);
});
