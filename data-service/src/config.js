'use strict';
// Configuration from the environment, validated once at start. A bad value throws a ConfigError
// that names the variable, so a misconfigured pod fails fast and says why instead of limping.
const fs = require('node:fs');
const os = require('node:os');
const grammar = require('./grammar');

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

class ConfigError extends Error {
  constructor(variable, problem) {
    super(`invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

/** The value of `name`, or undefined when unset or empty (an empty variable means "default"). */
function read(env, name) {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env, name, fallback, range) {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = grammar.read('integer', raw, range);
  if (value === undefined) {
    throw new ConfigError(name, `must be ${grammar.accepts('integer', range)}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function port(env, name, fallback) {
  return integer(env, name, fallback, { min: 0, max: 65535 });
}

function readableFile(env, name, what = 'PEM file') {
  const file = read(env, name);
  if (file === undefined) return undefined;
  try {
    fs.accessSync(file, fs.constants.R_OK);
    if (!fs.statSync(file).isFile()) throw new Error('not a regular file');
  } catch (err) {
    throw new ConfigError(name, `must name a readable ${what}, got ${JSON.stringify(file)} (${err.message})`);
  }
  return file;
}

function redisUrl(env) {
  const raw = read(env, 'REDIS_URL') || 'redis://127.0.0.1:6379';
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('REDIS_URL', `must be a URL like redis://host:6379, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError('REDIS_URL', `must use redis:// or rediss://, got ${JSON.stringify(raw)}`);
  }
  if (!url.hostname) throw new ConfigError('REDIS_URL', `has no host: ${JSON.stringify(raw)}`);
  return raw;
}

function clusterNodes(env) {
  const raw = read(env, 'REDIS_CLUSTER_NODES');
  if (raw === undefined) return undefined;
  // Split by hand, not as a grammar list: an empty entry is a mistake here, not a blank to drop.
  return raw.split(',').map((entry) => {
    const node = entry.trim();
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(node);
    if (!match || Number(match[2]) < 1 || Number(match[2]) > 65535) {
      throw new ConfigError(
        'REDIS_CLUSTER_NODES',
        `must be a comma-separated list of host:port, got ${JSON.stringify(node)} in ${JSON.stringify(raw)}`,
      );
    }
    return { host: match[1].replace(/^\[|\]$/g, ''), port: Number(match[2]) };
  });
}

function logLevel(env) {
  const raw = read(env, 'LOG_LEVEL');
  if (raw === undefined) return 'info';
  const level = raw.toLowerCase();
  if (!LOG_LEVELS.includes(level)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return level;
}

function instanceName(env) {
  const raw = read(env, 'INSTANCE_NAME');
  if (raw === undefined) return os.hostname();
  if (raw.length > 253 || !/^[\x20-\x7e]+$/.test(raw)) {
    throw new ConfigError('INSTANCE_NAME', 'must be at most 253 printable ASCII characters');
  }
  return raw;
}

/** Reads and validates the configuration; throws ConfigError naming the first bad variable. */
function loadConfig(env = process.env) {
  const tlsCertFile = readableFile(env, 'TLS_CERT_FILE');
  const tlsKeyFile = readableFile(env, 'TLS_KEY_FILE');
  if (Boolean(tlsCertFile) !== Boolean(tlsKeyFile)) {
    throw new ConfigError(
      tlsCertFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE',
      'must be set together with the other: the HTTPS listener needs both TLS_CERT_FILE and TLS_KEY_FILE',
    );
  }
  const tlsTicketKeysFile = readableFile(env, 'TLS_TICKET_KEYS_FILE', 'file of session ticket keys');
  if (tlsTicketKeysFile && !tlsCertFile) {
    throw new ConfigError(
      'TLS_TICKET_KEYS_FILE',
      'is for the HTTPS listener: set TLS_CERT_FILE and TLS_KEY_FILE too',
    );
  }
  const keepAliveTimeoutMs = integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 65000, { min: 1000, max: 3600000 });
  const redisTimeoutMs = integer(env, 'REDIS_TIMEOUT_MS', 1000, { min: 10, max: 60000 });
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 10000, { min: 100, max: 600000 });
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 30000, { min: 100, max: 3600000 });
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(
      'REQUEST_TIMEOUT_MS',
      `must be at least HEADERS_TIMEOUT_MS (${headersTimeoutMs}): the headers are part of the request, got ${requestTimeoutMs}`,
    );
  }
  const config = {
    port: port(env, 'PORT', 8080),
    tlsPort: port(env, 'TLS_PORT', 8443),
    tlsCertFile,
    tlsKeyFile,
    tlsTicketKeysFile,
    tls: Boolean(tlsCertFile),
    redisUrl: redisUrl(env),
    redisClusterNodes: clusterNodes(env),
    redisPassword: read(env, 'REDIS_PASSWORD'),
    redisTimeoutMs,
    // Acknowledge a write only once this many replicas have it (WAIT), within half the Redis
    // timeout, so that the write and its WAIT together stay inside one command's budget.
    redisWaitReplicas: integer(env, 'REDIS_WAIT_REPLICAS', 0, { min: 0, max: 16 }),
    redisWaitTimeoutMs: Math.max(1, Math.floor(redisTimeoutMs / 2)),
    instanceName: instanceName(env),
    logLevel: logLevel(env),
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 65536, { min: 2, max: 16 * 1024 * 1024 }),
    drainDelayMs: integer(env, 'DRAIN_DELAY_MS', 5000, { min: 0, max: 600000 }),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10000, { min: 0, max: 600000 }),
    keepAliveTimeoutMs,
    // Limits for a client that reaches the service without the router in front (slowloris, a
    // connection flood): a request's headers, and the whole request, must arrive in time (408
    // and close otherwise); at most maxConnections open connections per listener. Since Node 18
    // these timers run only while a request is being received, never on an idle keep-alive
    // connection, so they may be far below the keep-alive timeout.
    headersTimeoutMs,
    requestTimeoutMs,
    maxConnections: integer(env, 'MAX_CONNECTIONS', 10000, { min: 1, max: 1000000 }),
    // Node checks those timers on an interval (30 s by default): often enough to hold them.
    connectionsCheckingIntervalMs: Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
    tlsReloadIntervalMs: integer(env, 'TLS_RELOAD_INTERVAL_MS', 30000, { min: 100, max: 3600000 }),
  };
  if (config.tls && config.port !== 0 && config.port === config.tlsPort) {
    throw new ConfigError('TLS_PORT', `must differ from PORT (both are ${config.port})`);
  }
  return Object.freeze(config);
}

module.exports = { loadConfig, ConfigError, LOG_LEVELS };
