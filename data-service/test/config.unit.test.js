'use strict';
// Configuration (src/config.js): defaults, and every validation naming the variable.
const fs = require('node:fs');
const path = require('node:path');
const { loadConfig, ConfigError } = require('../src/config');
const { tempDir } = require('./helpers');

describe('loadConfig', () => {
  test('defaults follow the contract (docs/contract.md)', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      tlsPort: 8443,
      tls: false,
      redisUrl: 'redis://127.0.0.1:6379',
      redisClusterNodes: undefined,
      redisPassword: undefined,
      logLevel: 'info',
      maxBodyBytes: 65536,
      drainDelayMs: 5000,
      shutdownTimeoutMs: 10000,
      keepAliveTimeoutMs: 65000,
      headersTimeoutMs: 10000,
      requestTimeoutMs: 30000,
      maxConnections: 10000,
      connectionsCheckingIntervalMs: 1000,
      redisTimeoutMs: 1000,
    });
    expect(config.instanceName).toBe(require('node:os').hostname());
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('values are read and empty means default', () => {
    const config = loadConfig({
      PORT: '9000',
      REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-1.redis:7001,[::1]:7002',
      REDIS_PASSWORD: 's3cret',
      INSTANCE_NAME: 'pod-a',
      LOG_LEVEL: 'DEBUG',
      MAX_BODY_BYTES: '',
      KEEP_ALIVE_TIMEOUT_MS: '70000',
      HEADERS_TIMEOUT_MS: '400',
    });
    expect(config.port).toBe(9000);
    expect(config.redisClusterNodes).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-1.redis', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    expect(config.logLevel).toBe('debug');
    expect(config.maxBodyBytes).toBe(65536);
    expect(config.keepAliveTimeoutMs).toBe(70000);
    expect(config.headersTimeoutMs).toBe(400);
    expect(config.connectionsCheckingIntervalMs).toBe(100);
  });

  test.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['TLS_PORT', '8.5'],
    ['REDIS_URL', 'not a url'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['REDIS_CLUSTER_NODES', '127.0.0.1'],
    ['REDIS_CLUSTER_NODES', '127.0.0.1:7000,:7001'],
    ['REDIS_CLUSTER_NODES', '127.0.0.1:99999'],
    ['LOG_LEVEL', 'verbose'],
    ['MAX_BODY_BYTES', '0'],
    ['MAX_BODY_BYTES', '64kb'],
    ['DRAIN_DELAY_MS', 'soon'],
    ['SHUTDOWN_TIMEOUT_MS', '1e4'],
    ['KEEP_ALIVE_TIMEOUT_MS', '500'],
    ['REDIS_TIMEOUT_MS', '0'],
    ['HEADERS_TIMEOUT_MS', '50'],
    ['REQUEST_TIMEOUT_MS', '5000'],
    ['MAX_CONNECTIONS', '0'],
    ['INSTANCE_NAME', 'bad\u0007name'],
    ['TLS_CERT_FILE', '/nonexistent/tls.crt'],
  ])('%s=%j is refused naming the variable', (name, value) => {
    const attempt = () => loadConfig({ [name]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(new RegExp(`^invalid configuration: ${name} `));
  });

  test('TLS needs both files, and distinct ports', () => {
    const dir = tempDir('config');
    try {
      const cert = path.join(dir, 'tls.crt');
      fs.writeFileSync(cert, 'x');
      expect(() => loadConfig({ TLS_CERT_FILE: cert })).toThrow(/TLS_KEY_FILE must be set together/);
      expect(() => loadConfig({ TLS_KEY_FILE: cert })).toThrow(/TLS_CERT_FILE must be set together/);
      expect(() =>
        loadConfig({ TLS_CERT_FILE: cert, TLS_KEY_FILE: cert, PORT: '9000', TLS_PORT: '9000' }),
      ).toThrow(/TLS_PORT must differ from PORT/);
      expect(loadConfig({ TLS_CERT_FILE: cert, TLS_KEY_FILE: cert }).tls).toBe(true);
      expect(() => loadConfig({ TLS_CERT_FILE: dir, TLS_KEY_FILE: cert })).toThrow(
        /TLS_CERT_FILE must name a readable/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
