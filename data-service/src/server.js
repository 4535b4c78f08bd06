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
const { sharedSessions } = require('./ticket-keys');
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

/** A configuration error ends the process with EX_CONFIG and one line naming what is wrong. */
function exitConfig(message) {
  process.stderr.write(`data-service: ${message}\n`);
  process.exit(EXIT_CONFIG);
}

/**
 * The configuration and, with TLS, the certificate pair, both checked before anything starts: a
 * bad pair is a configuration error too.
 */
function configure() {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    exitConfig(err.message);
  }
  let tlsSetup;
  if (config.tls) {
    try {
      tlsSetup = tlsServerOptions(config.tlsCertFile, config.tlsKeyFile);
    } catch (err) {
      exitConfig(
        `invalid configuration: TLS_CERT_FILE and TLS_KEY_FILE are not a usable pair (${err.message})`,
      );
    }
    try {
      tlsSetup.sessionOptions = config.tlsTicketKeysFile ? sharedSessions(config.tlsTicketKeysFile) : {};
    } catch (err) {
      exitConfig(`invalid configuration: ${err.message}`);
    }
  }
  return { config, tlsSetup };
}

/** An error nothing caught is logged as fatal and ends the process. */
function exitOnUncaught(logger) {
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception');
    process.exit(1);
  });
  process.on('unhandledRejection', (err) => {
    logger.fatal({ err }, 'unhandled promise rejection');
    process.exit(1);
  });
}

/** The HTTP listener and, with TLS, the HTTPS one with its certificate watcher. */
async function startListeners({ config, tlsSetup, listener, logger, metrics }) {
  const servers = [tuneListener(http.createServer(listenerOptions(config), listener), config)];
  const ports = { http: await listen(servers[0], config.port) };
  let certWatcher;
  if (tlsSetup) {
    const { pair, options, sessionOptions } = tlsSetup;
    const httpsServer = tuneListener(
      https.createServer(
        { ...options, ...sessionOptions, ALPNProtocols: ['http/1.1'], ...listenerOptions(config) },
        listener,
      ),
      config,
    );
    httpsServer.on('secureConnection', (socket) => metrics.observeTlsSession(socket.isSessionReused()));
    servers.push(httpsServer);
    ports.https = await listen(httpsServer, config.tlsPort);
    certWatcher = watchCertificate(httpsServer, {
      certFile: config.tlsCertFile,
      keyFile: config.tlsKeyFile,
      initial: pair,
      logger,
      pollIntervalMs: config.tlsReloadIntervalMs,
      sessionOptions,
    });
    logger.info({ serialNumber: pair.serialNumber, validTo: pair.validTo }, 'TLS certificate loaded');
  }
  logger.info(
    { ports, redis: describeRedis(config), keepAliveTimeoutMs: config.keepAliveTimeoutMs },
    `listening on http :${ports.http}${ports.https ? ` and https :${ports.https}` : ''}`,
  );
  return { servers, certWatcher };
}

/** SIGTERM or SIGINT runs the graceful shutdown, then exits; a second signal exits at once. */
function shutdownOnSignals(shutdown, logger) {
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

async function main() {
  const { config, tlsSetup } = configure();
  const logger = createLogger(config);
  exitOnUncaught(logger);

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

  const { servers, certWatcher } = await startListeners({ config, tlsSetup, listener, logger, metrics });
  const shutdown = createShutdown({
    servers,
    redis,
    lifecycle,
    logger,
    drainDelayMs: config.drainDelayMs,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    beforeRedis: () => certWatcher?.stop(),
  });
  shutdownOnSignals(shutdown, logger);
}

main().catch((err) => {
  process.stderr.write(`data-service: failed to start: ${err.stack || err.message}\n`);
  process.exit(1);
});
