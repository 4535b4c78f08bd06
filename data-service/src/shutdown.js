'use strict';
// Graceful shutdown, in the order that loses no request behind a router: readiness 503, serve
// on for DRAIN_DELAY_MS while the router notices, stop accepting and finish in-flight requests
// (cut after SHUTDOWN_TIMEOUT_MS), quit Redis.
const { closeRedis } = require('./redis');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function closeServer(server) {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/**
 * @returns {(signal: string) => Promise<{ forced: boolean }>} runs the sequence once; later calls
 *   return the same promise.
 */
function createShutdown({ servers, redis, lifecycle, logger, drainDelayMs, shutdownTimeoutMs, beforeRedis }) {
  let running;
  async function sequence(signal) {
    lifecycle.shuttingDown = true;
    // SIGINT (Ctrl-C at a terminal; lab:down, once the router has stopped) skips the drain: no
    // router is sending traffic, so there is nothing to drain from.
    const drainMs = signal === 'SIGINT' ? 0 : drainDelayMs;
    logger.info({ signal, drainDelayMs: drainMs }, 'shutting down: readiness is 503, draining');
    if (drainMs > 0) await sleep(drainMs);

    // Stop accepting, close idle keep-alive connections, answer in-flight requests with
    // Connection: close; after SHUTDOWN_TIMEOUT_MS the stragglers are cut.
    lifecycle.closing = true;
    logger.info({ shutdownTimeoutMs }, 'closing listeners; finishing in-flight requests');
    let timer;
    const closed = Promise.all(servers.map(closeServer)).then(() => false);
    const timedOut = new Promise((resolve) => {
      timer = setTimeout(() => resolve(true), shutdownTimeoutMs);
    });
    const forced = await Promise.race([closed, timedOut]);
    clearTimeout(timer);
    if (forced) {
      logger.warn(
        { shutdownTimeoutMs },
        'in-flight requests did not finish in time; closing their connections',
      );
      for (const server of servers) server.closeAllConnections();
      await closed;
    }

    if (beforeRedis) beforeRedis();
    await closeRedis(redis);
    logger.info({ forced }, 'stopped');
    return { forced };
  }
  return (signal) => {
    running ??= sequence(signal);
    return running;
  };
}

module.exports = { createShutdown };
