'use strict';
// Structured JSON logs on stdout (the platform collects them). Synchronous writes: a log line
// is never lost when the process exits right after it, and at info the service logs only
// lifecycle events, so the write cost is irrelevant; per-request lines appear at debug.
const pino = require('pino');

function createLogger(
  { logLevel = 'info', instanceName } = {},
  destination = pino.destination({ sync: true }),
) {
  return pino(
    {
      name: 'data-service',
      level: logLevel,
      base: { instance: instanceName, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

module.exports = { createLogger };
