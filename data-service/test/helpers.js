'use strict';
// Shared test fixtures: real redis-server processes, the app wired to them, and the service as a
// real child process. Nothing here mocks Redis.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startTestRedis, redisCli } = require('../../lib/core/redis-server');
const { startChild } = require('../../lib/core/processes');
const { setTimeout: sleep } = require('node:timers/promises');
const { freePorts, waitForPort } = require('../../lib/core/ports');
const { loadConfig } = require('../src/config');
const { createLogger } = require('../src/logger');
const { createMetrics } = require('../src/metrics');
const { createRedis, closeRedis } = require('../src/redis');
const { createApp } = require('../src/app');

const SERVER = path.join(__dirname, '..', 'src', 'server.js');

const tempDir = (prefix) => fs.mkdtempSync(path.join(os.tmpdir(), `router-lab-ds-${prefix}-`));

/** A silent pino logger that keeps its lines for assertions. */
function memoryLogger(level = 'info') {
  const lines = [];
  const logger = createLogger(
    { logLevel: level, instanceName: 'test' },
    { write: (line) => lines.push(JSON.parse(line)) },
  );
  return { logger, lines };
}

/** Redis (standalone or cluster) for one test file; `stop()` removes its directory too. */
async function testRedis(options = {}) {
  const dir = tempDir('redis');
  const redis = await startTestRedis({ dir, ...options });
  return {
    ...redis,
    cli: (...args) => redisCli(redis.port, options.password, ...args),
    async stop() {
      await redis.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The app wired to real Redis, as server.js wires it but without listeners. */
async function buildApp(env = {}, { logLevel = 'info' } = {}) {
  const config = loadConfig({ INSTANCE_NAME: 'test-instance', ...env });
  const { logger, lines } = memoryLogger(logLevel);
  const metrics = createMetrics({ defaultMetrics: false });
  const redis = createRedis(config, logger);
  await redis.connect().catch(() => {});
  const lifecycle = { shuttingDown: false, closing: false };
  const { app, listener } = createApp({ config, redis, metrics, logger, lifecycle });
  return {
    app,
    listener,
    config,
    redis,
    metrics,
    logger,
    logs: lines,
    lifecycle,
    close: () => closeRedis(redis),
  };
}

/**
 * The service as a real process (node src/server.js) on free ports. Resolves once it logged that
 * it listens. `env` is added to a minimal environment.
 */
async function startService(env = {}, { tls = false, args = [] } = {}) {
  const [port, tlsPort] = await freePorts(2);
  const child = startChild(process.execPath, [SERVER, ...args], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      TLS_PORT: String(tlsPort),
      INSTANCE_NAME: 'proc-test',
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  const deadline = Date.now() + 15000;
  while (!/listening on http/.test(child.output())) {
    if (child.child.exitCode !== null || Date.now() > deadline) {
      await child.stop();
      throw new Error(`the service did not start:\n${child.output()}`);
    }
    await sleep(25);
  }
  await waitForPort(port);
  if (tls) await waitForPort(tlsPort);
  return { ...child, port, tlsPort, base: `http://127.0.0.1:${port}`, logs: () => parseLogs(child.output()) };
}

function parseLogs(text) {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

/** Polls `check` (sync or async) until it is true; throws naming `what` after timeoutMs. */
async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return Date.now();
    await sleep(50);
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

/** Parses a Server-Timing header into { name: durationMs }. */
function serverTiming(header) {
  const entries = {};
  for (const part of String(header || '').split(',')) {
    const match = /^\s*([a-z]+);dur=(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (match) entries[match[1]] = Number(match[2]);
  }
  return entries;
}

module.exports = {
  tempDir,
  memoryLogger,
  testRedis,
  buildApp,
  startService,
  serverTiming,
  waitFor,
  SERVER,
  sleep,
};
