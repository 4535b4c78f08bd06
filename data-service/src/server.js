'use strict';
// The service's entry point: configuration, Redis, the HTTP and HTTPS listeners, and signals.
// Everything else lives in modules the tests can use on their own (app.js opens no port).
const http = require('node:http');
const https = require('node:https');
const { loadConfig, ConfigError } = require('./config');
const { createLogger } = require('./logger');
const { createMetrics } = require('./metrics');
const { createRedis, describeRedis } = require('./redis');
const { createApp } = require('./app');
const { tlsServerOptions, watchCertificate } = require('./tls');
const { createShutdown } = require('./shutdown');
const { TimedServerResponse } = require('./timing');

// sysexits(3) EX_CONFIG: the process cannot run with this configuration, restarting won't help.
const EXIT_CONFIG = 78;

function tuneListener(server, config) {
  // Longer than the router keeps idle connections to us, so the router, not the service,
  // closes an idle keep-alive connection: it never sends a request on one we are closing.
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;
  server.maxConnections = config.maxConnections;
  return server;
}

/** Options every listener is created with: the interval of Node's request-timer checks. */
const listenerOptions = (config) => ({
  ServerResponse: TimedServerResponse,
  connectionsCheckingInterval: config.connectionsCheckingIntervalMs,
});

function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve(server.address().port);
    });
  });
}

async function main() {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`data-service: ${err.message}\n`);
    process.exit(EXIT_CONFIG);
  }

  // The certificate pair is checked before anything starts: a bad pair is a configuration error.
  let tlsSetup;
  if (config.tls) {
    try {
      tlsSetup = tlsServerOptions(config.tlsCertFile, config.tlsKeyFile);
    } catch (err) {
      process.stderr.write(
        `data-service: invalid configuration: TLS_CERT_FILE and TLS_KEY_FILE are not a usable pair (${err.message})\n`,
      );
      process.exit(EXIT_CONFIG);
    }
  }

  const logger = createLogger(config);
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception');
    process.exit(1);
  });
  process.on('unhandledRejection', (err) => {
    logger.fatal({ err }, 'unhandled promise rejection');
    process.exit(1);
  });

  const metrics = createMetrics();
  const redis = createRedis(config, logger);
  const lifecycle = { shuttingDown: false, closing: false };
  const { listener } = createApp({ config, redis, metrics, logger, lifecycle });

  // Connect before listening, but do not wait forever: without Redis the service still starts,
  // answers /readyz with 503 and keeps reconnecting in the background.
  try {
    await redis.connect();
  } catch (err) {
    logger.warn({ error: err.message, redis: describeRedis(config) }, 'redis not reachable yet');
  }

  const servers = [tuneListener(http.createServer(listenerOptions(config), listener), config)];
  const ports = { http: await listen(servers[0], config.port) };
  let certWatcher;
  if (tlsSetup) {
    const { pair, options } = tlsSetup;
    const httpsServer = tuneListener(
      https.createServer({ ...options, ALPNProtocols: ['http/1.1'], ...listenerOptions(config) }, listener),
      config,
    );
    servers.push(httpsServer);
    ports.https = await listen(httpsServer, config.tlsPort);
    certWatcher = watchCertificate(httpsServer, {
      certFile: config.tlsCertFile,
      keyFile: config.tlsKeyFile,
      initial: pair,
      logger,
      pollIntervalMs: config.tlsReloadIntervalMs,
    });
    logger.info({ serialNumber: pair.serialNumber, validTo: pair.validTo }, 'TLS certificate loaded');
  }
  logger.info(
    { ports, redis: describeRedis(config), keepAliveTimeoutMs: config.keepAliveTimeoutMs },
    `listening on http :${ports.http}${ports.https ? ` and https :${ports.https}` : ''}`,
  );

  const shutdown = createShutdown({
    servers,
    redis,
    lifecycle,
    logger,
    drainDelayMs: config.drainDelayMs,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    beforeRedis: () => certWatcher?.stop(),
  });
  let signals = 0;
  const onSignal = (signal) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    shutdown(signal).then(
      () => process.exit(0),
      (err) => {
        logger.fatal({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

main().catch((err) => {
  process.stderr.write(`data-service: failed to start: ${err.stack || err.message}\n`);
  process.exit(1);
});
