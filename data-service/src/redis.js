'use strict';
// The Redis client, standalone (REDIS_URL) or Cluster (REDIS_CLUSTER_NODES), with every wait
// bounded: no offline queue, one retry at most, command and connect timeouts, and reconnection
// with capped backoff forever, so the service recovers by itself when Redis comes back.
const Redis = require('ioredis');

const RECONNECT_CAP_MS = 2000;
// Clients being closed on purpose: their 'close' is not an outage.
const closing = new WeakSet();

const backoff = (attempt) => Math.min(50 * 2 ** Math.min(attempt, 10), RECONNECT_CAP_MS);

function createRedis(config, logger) {
  const common = {
    password: config.redisPassword,
    connectTimeout: Math.max(config.redisTimeoutMs, 1000),
    commandTimeout: config.redisTimeoutMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // A command in flight when the connection drops fails instead of being resent later, when
    // its client has long been answered or gone.
    autoResendUnfulfilledCommands: false,
    lazyConnect: true,
    retryStrategy: backoff,
    // How long a disconnect waits for the socket to close before destroying it (default 2 s).
    disconnectTimeout: 500,
  };

  let client;
  if (config.redisClusterNodes) {
    client = new Redis.Cluster(config.redisClusterNodes, {
      redisOptions: common,
      enableOfflineQueue: false,
      lazyConnect: true,
      clusterRetryStrategy: backoff,
      // MOVED/ASK and failover retries stay well inside one request's budget.
      maxRedirections: 4,
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      retryDelayOnTryAgain: 100,
      slotsRefreshTimeout: Math.max(config.redisTimeoutMs, 1000),
      scaleReads: 'master',
    });
  } else {
    client = new Redis(config.redisUrl, common);
  }

  // ioredis emits 'error' on every failed reconnect; log state changes, not each attempt.
  let lastError = '';
  let wasReady = false;
  client.on('ready', () => {
    lastError = '';
    wasReady = true;
    logger.info({ redis: describe(config) }, 'redis ready');
  });
  client.on('error', (err) => {
    if (err.message !== lastError) {
      lastError = err.message;
      logger.warn({ error: err.message, code: err.code }, 'redis error');
    }
  });
  client.on('close', () => {
    if (wasReady && !closing.has(client)) logger.warn('redis connection lost; reconnecting');
    wasReady = false;
  });
  client.on('end', () => logger.info('redis connection closed'));
  return client;
}

function describe(config) {
  return config.redisClusterNodes
    ? `cluster ${config.redisClusterNodes.map((n) => `${n.host}:${n.port}`).join(',')}`
    : config.redisUrl.replace(/\/\/[^@/]*@/, '//***@');
}

/** Closes the client: QUIT politely when connected, but never wait longer than timeoutMs. */
async function closeRedis(client, timeoutMs = 1000) {
  if (client.status === 'end') return;
  closing.add(client);
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  let timer;
  try {
    await Promise.race([
      client.quit(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('QUIT timed out')), timeoutMs);
      }),
    ]);
  } catch {
    client.disconnect();
  } finally {
    clearTimeout(timer);
  }
}

module.exports = { createRedis, closeRedis, describeRedis: describe };
