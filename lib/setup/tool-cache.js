'use strict';
// What setup builds, kept outside the checkout by everything that went into it: another clone (or a
// setup after `rm -rf .tools`) copies the result instead of building it again, as ccache does for C.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** The folder, or 'off' for no cache at all. */
const CACHE_ENV = 'ROUTER_LAB_TOOL_CACHE';
/** An entry not used for this long is removed when another is stored. */
const UNUSED_DAYS = 30;

/** The cache's folder: CACHE_ENV, else $XDG_CACHE_HOME/router-lab/tools (~/.cache); null when off. */
function toolCacheDir(env = process.env) {
  if (env[CACHE_ENV] === 'off') return null;
  if (env[CACHE_ENV]) return path.resolve(env[CACHE_ENV]);
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'router-lab', 'tools');
}

/**
 * An entry's name: the hash of `key` (the build's inputs), of the machine's platform, and of the
 * builder's own source (`recipe`, a file): a change in how a tool is built is a new entry.
 */
function entryName(key, recipe) {
  const canonical = JSON.stringify({
    key,
    platform: `${process.platform}-${process.arch}`,
    recipe: crypto.createHash('sha256').update(fs.readFileSync(recipe)).digest('hex'),
  });
  return crypto.createHash('sha256').update(canonical).digest('hex').slice(0, 24);
}

/** Copies each output (a file or a folder) to `to(i)`, replacing what was there. */
function copyOutputs(outputs, to) {
  outputs.forEach((output, i) => {
    fs.rmSync(to(i), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(to(i)), { recursive: true });
    fs.cpSync(output, to(i), { recursive: true, preserveTimestamps: true });
  });
}

/** Removes entries unused for UNUSED_DAYS, and folders a stopped store left half written. */
function prune(dir, now = Date.now()) {
  for (const name of fs.readdirSync(dir)) {
    const entry = path.join(dir, name);
    const ageDays = (now - fs.statSync(entry).mtimeMs) / 86400000;
    if (ageDays > UNUSED_DAYS || (name.includes('.tmp-') && ageDays > 1)) {
      fs.rmSync(entry, { recursive: true, force: true });
    }
  }
}

/** Keeps copies of `outputs` as entry `name`: written beside it, then renamed, so never half there. */
function store(dir, name, { what, key, outputs }) {
  const entry = path.join(dir, name);
  const partial = `${entry}.tmp-${process.pid}`;
  copyOutputs(outputs, (i) => path.join(partial, String(i)));
  fs.writeFileSync(path.join(partial, 'key.json'), `${JSON.stringify({ what, key }, null, 2)}\n`);
  try {
    fs.renameSync(partial, entry);
  } catch (err) {
    // Another setup stored the same entry meanwhile: the same inputs, the same result.
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(entry)) throw err;
  }
  prune(dir);
}

/**
 * Runs `build()`, which writes `outputs` (files or folders), unless the cache holds them for `key`
 * and `recipe` (the builder's file): then copies them in place. Keeps copies after a build; a
 * failed build stores nothing. Resolves true when the outputs came from the cache.
 */
async function cachedBuild({ what, key, recipe, outputs, log = () => {}, env = process.env }, build) {
  if (!outputs.length) throw new Error(`${what}: the tool cache needs the files the build writes`);
  const dir = toolCacheDir(env);
  const name = dir && entryName(key, recipe);
  const entry = dir && path.join(dir, name);
  if (entry && outputs.every((_, i) => fs.existsSync(path.join(entry, String(i))))) {
    copyOutputs(
      outputs.map((_, i) => path.join(entry, String(i))),
      (i) => outputs[i],
    );
    const now = new Date();
    fs.utimesSync(entry, now, now);
    log(`  ${what}: from the tool cache, built from the same inputs before (${entry})`);
    return true;
  }
  await build();
  if (!dir) return false;
  try {
    fs.mkdirSync(dir, { recursive: true });
    store(dir, name, { what, key, outputs });
  } catch (err) {
    // The build is done and in place: a cache that cannot keep it costs the next clone time only.
    log(`  ! ${what}: built, but not kept in the tool cache ${dir}: ${err.message}`);
  }
  return false;
}

module.exports = { cachedBuild, toolCacheDir, CACHE_ENV, UNUSED_DAYS };
