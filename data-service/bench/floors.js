'use strict';
// The benchmark's two floors: the service's record routes' Redis calls with nothing else, as a
// bare node:http handler (`node floors.js http`) or a bare Express 5 app (`node floors.js express`:
// no middleware, etag off, route-level express.json for POST like the service).
const http = require('node:http');
const crypto = require('node:crypto');
const express = require('express');
const { loadConfig } = require('../src/config');
const { createLogger } = require('../src/logger');
const { createRedis } = require('../src/redis');

const PATH = /^\/api\/records\/([0-9a-f-]{36})$/;

// Both use the service's own Redis client factory, so the Redis side is identical, and both
// write the response with res.end like the service does: the ratio then prices the service's
// features (timing, metrics, validation, error handling), not a choice of response helper.
function nodeHttpFloor(redis) {
  return http.createServer((req, res) => {
    if (req.method === 'GET') {
      const match = PATH.exec(req.url);
      if (!match) return end(res, 404, '');
      redis.get(`record:${match[1]}`).then(
        (text) => (text === null ? end(res, 404, '') : end(res, 200, text)),
        () => end(res, 503, ''),
      );
      return undefined;
    }
    if (req.method === 'POST' && req.url === '/api/records') {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        let body;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return end(res, 400, '');
        }
        const id = crypto.randomUUID();
        const text = JSON.stringify({ id, ...body });
        redis.set(`record:${id}`, text, 'NX').then(
          () => {
            res.setHeader('Location', `/api/records/${id}`);
            end(res, 201, text);
          },
          () => end(res, 503, ''),
        );
        return undefined;
      });
      return undefined;
    }
    return end(res, 405, '');
  });
}

function end(res, status, text) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

function expressFloor(redis) {
  const app = express();
  app.set('etag', false);
  app.get('/api/records/:id', async (req, res) => {
    const text = await redis.get(`record:${req.params.id}`);
    if (text === null) res.status(404).end();
    else end(res, 200, text);
  });
  app.post('/api/records', express.json(), async (req, res) => {
    const id = crypto.randomUUID();
    const text = JSON.stringify({ id, ...req.body });
    await redis.set(`record:${id}`, text, 'NX');
    res.setHeader('Location', `/api/records/${id}`);
    end(res, 201, text);
  });
  return http.createServer(app);
}

async function main() {
  const kind = process.argv[2];
  if (kind !== 'http' && kind !== 'express') {
    process.stderr.write('usage: node floors.js http|express   (env: PORT, REDIS_URL)\n');
    process.exit(2);
  }
  const config = loadConfig(process.env);
  const redis = createRedis(config, createLogger({ logLevel: 'warn', instanceName: `floor-${kind}` }));
  await redis.connect();
  const server = kind === 'http' ? nodeHttpFloor(redis) : expressFloor(redis);
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.listen(config.port, () => process.stdout.write(`floor ${kind} listening on http :${config.port}\n`));
  const stop = () => server.close(() => redis.quit().finally(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  process.stderr.write(`floor: ${err.stack}\n`);
  process.exit(1);
});
