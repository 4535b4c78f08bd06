'use strict';
// What the three lab commands share: --help, and turning an error into a clear message + exit code.
const { knobsHelp } = require('./options');

// Output piped into `head` (or a closed terminal) must not crash a command half-way through
// starting or stopping processes: a write to a closed pipe is ignored.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
}

/** Handles argv: prints usage for --help/-h; rejects unknown arguments. Returns the flags seen. */
function parseArgs(argv, { usage, flags = [] }) {
  const seen = {};
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') {
      console.log(`${usage}\n\nKnobs (environment variables):\n${knobsHelp()}\n\nMore: docs/lab.md`);
      process.exit(0);
    }
    if (!flags.includes(arg)) {
      console.error(`unknown argument ${JSON.stringify(arg)}\n\n${usage}`);
      process.exit(2);
    }
    seen[arg.replace(/^--/, '')] = true;
  }
  return seen;
}

/** Prints an error without a stack (unless LAB_DEBUG is set) and sets the exit code. */
function fail(err, code = 1) {
  console.error(`\n${err.name === 'LabOptionError' ? 'invalid setting: ' : ''}${err.message}`);
  if (process.env.LAB_DEBUG && err.stack) console.error(err.stack);
  process.exitCode = code;
}

module.exports = { parseArgs, fail };
