'use strict';
// Installs system packages with the platform's own manager (apt, dnf or brew), as root, through
// non-interactive sudo, or not at all: then it says exactly what to run.
const { spawnSync } = require('node:child_process');
const { findOnPath } = require('../core/tools');

const MANAGERS = [
  { name: 'apt', bin: 'apt-get', root: true },
  { name: 'dnf', bin: 'dnf', root: true },
  { name: 'brew', bin: 'brew', root: false },
];

let aptUpdated = false;

function detectManager() {
  return MANAGERS.find((m) => findOnPath(m.bin)) || null;
}

/** The prefix that gives root, [] if we are root, or null if we cannot get it without asking. */
function privilege() {
  if (process.getuid && process.getuid() === 0) return [];
  if (findOnPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) {
    return ['sudo', '-n'];
  }
  return null;
}

function commandFor(manager, packages) {
  switch (manager.name) {
    case 'apt':
      return ['apt-get', 'install', '-y', '--no-install-recommends', ...packages];
    case 'dnf':
      return ['dnf', 'install', '-y', ...packages];
    default:
      return ['brew', 'install', ...packages];
  }
}

/**
 * Installs `packagesByManager[manager]` (e.g. { apt: ['redis-server'], dnf: ['redis'] }).
 * Throws an Error whose message says what to run by hand when it cannot install.
 */
function installSystemPackages(what, packagesByManager, log) {
  const manager = detectManager();
  if (!manager) {
    throw new Error(`no supported package manager (apt, dnf, brew) found: install ${what} yourself`);
  }
  const packages = packagesByManager[manager.name];
  if (!packages || packages.length === 0) {
    throw new Error(`${what} has no ${manager.name} package: install it yourself and put it on PATH`);
  }
  const prefix = manager.root ? privilege() : [];
  const command = commandFor(manager, packages);
  if (prefix === null) {
    throw new Error(`${what} is missing and installing it needs root: run 'sudo ${command.join(' ')}'`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const exec = (argv) => {
    const [cmd, ...args] = [...prefix, ...argv];
    log(`  $ ${[cmd, ...args].join(' ')}`);
    return spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env }).status === 0;
  };
  if (manager.name === 'apt' && !aptUpdated) {
    aptUpdated = true;
    exec(['apt-get', 'update', '-qq']);
  }
  if (!exec(command)) {
    throw new Error(`'${command.join(' ')}' failed: see the output above`);
  }
}

module.exports = { detectManager, installSystemPackages };
