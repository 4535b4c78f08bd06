'use strict';
// Finds the executables the project runs: pinned copies in .tools/bin first, then PATH.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { TOOLS_BIN } = require('./paths');

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Absolute path of `name` on PATH only (no .tools), or null. */
function findOnPath(name, envPath = process.env.PATH || '') {
  for (const dir of envPath.split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

/** Absolute path of `name` in .tools/bin, else on PATH, else null. */
function findTool(name) {
  const pinned = path.join(TOOLS_BIN, name);
  return isExecutable(pinned) ? pinned : findOnPath(name);
}

/** Like findTool, but throws an error that says how to get the tool. */
function requireTool(name) {
  const found = findTool(name);
  if (!found) {
    throw new Error(`${name} was not found in .tools/bin or on PATH: run 'npm run setup' first`);
  }
  return found;
}

/** First line of `<tool> <args>` output (stdout or stderr), or null if it cannot run. */
function toolVersion(file, args = ['--version']) {
  try {
    const out = execFileSync(file, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 15000,
    });
    return out.trim().split('\n')[0] || null;
  } catch (err) {
    const text = `${err.stdout || ''}${err.stderr || ''}`.trim();
    return text ? text.split('\n')[0] : null;
  }
}

/** Compares dotted versions numerically: negative, zero or positive like a sort comparator. */
function compareVersions(a, b) {
  const pa = String(a).split('.').map(Number);
  const pb = String(b).split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d !== 0) return d;
  }
  return 0;
}

module.exports = { findOnPath, findTool, requireTool, toolVersion, compareVersions, isExecutable };
