'use strict';
// What the lab commands share: their --help (flags, then the LAB_* knobs from the one knob table),
// and argument parsing (lib/core/run-command.js turns their errors into a message and exit code).
const { defineCommand, commandLine } = require('../../core/settings');
const { KNOBS } = require('./options');

// Output piped into `head` (or a closed terminal) must not crash a command half-way through
// starting or stopping processes: a write to a closed pipe is ignored.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
}

/** A lab command: `name` (e.g. lab:up) prefixes its errors; its help ends with the knobs. */
function labCommand({ name, ...spec }) {
  const command = defineCommand({
    ...spec,
    environment: { title: 'Knobs (environment variables):', settings: KNOBS },
    epilogue: 'More: docs/lab.md',
  });
  return { ...command, name };
}

/** Parses argv for a lab command: --help prints and exits 0, a usage error exits 2. Returns the values. */
function parseArgs(command, argv) {
  return commandLine(command, argv, { name: command.name }).values;
}

module.exports = { labCommand, parseArgs };
