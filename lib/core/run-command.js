'use strict';
// How every bin/ command ends: the exit code its main returns, or for an error: its own exitCode
// (a UsageError's is 2), 130 when interrupted (./interrupt.js), else 1, printed as "name: message".

// A bug, not a condition the user can fix: its stack says where.
const BUGS = [TypeError, ReferenceError];

/** Prints `err` as "name: message" and returns the exit code it means (130 once `signal` aborted). */
function reportError(name, err, signal) {
  if (signal?.aborted || err?.name === 'AbortError') {
    console.error(`${name}: interrupted`);
    return 130;
  }
  console.error(`${name}: ${err?.message ?? err}`);
  if (err?.stack && (process.env.LAB_DEBUG || BUGS.some((type) => err instanceof type))) {
    console.error(err.stack);
  }
  return Number.isInteger(err?.exitCode) ? err.exitCode : 1;
}

/**
 * Runs a command's `main()` (sync or async) and sets process.exitCode: what main returns (nothing
 * leaves it as it is, 0 by default), or what its error means (reportError).
 */
function runCommand(name, main) {
  return new Promise((resolve) => resolve(main())).then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (err) => {
      process.exitCode = reportError(name, err);
    },
  );
}

module.exports = { runCommand, reportError };
