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

/** A command's failure said on stderr (`<name>: interrupted` after Ctrl-C); returns its exit code. */
function failureExitCode(name, err, signal) {
  const interrupted = signal?.aborted || err.name === 'AbortError';
  console.error(`${name}: ${interrupted ? 'interrupted' : err.message}`);
  return interrupted ? 130 : (err.exitCode ?? 1);
}

module.exports = { withInterrupt, failureExitCode };
