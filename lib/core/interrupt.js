'use strict';
// Ctrl-C (SIGINT) and SIGTERM as an AbortSignal for the long-running commands (lab:up,
// lab:rollout, matrix, lab): the work checks the signal, and the command's own `finally` stops
// whatever it started, so an interrupt never leaves a process running.

/**
 * Runs `task(signal)`. The first SIGINT or SIGTERM aborts `signal` and prints `message` (once).
 * The handlers are removed when the task settles.
 */
async function withInterrupt(task, { message } = {}) {
  const controller = new AbortController();
  const onSignal = () => {
    if (!controller.signal.aborted && message) console.error(message);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await task(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

module.exports = { withInterrupt };
