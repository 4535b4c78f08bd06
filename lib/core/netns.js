'use strict';
// A network namespace of the lab's own (root only): its own loopback, ephemeral ports and TIME_WAIT
// table, so a client's ports can run out without touching the machine's. Commands run inside with
// `ip netns exec` (same pid: its CPU is sampled as usual); host ports through ./port-bridge.js.
const { execFile, execFileSync } = require('node:child_process');
const { promisify } = require('node:util');
const { isAlive } = require('./processes');

const run = promisify(execFile);

/** Whether namespaces can be made here: { ok: true } or { ok: false, why }. */
function netnsSupport() {
  if (process.getuid?.() !== 0) {
    return { ok: false, why: 'needs root: a network namespace of its own (ip netns) is made as root' };
  }
  try {
    execFileSync('ip', ['netns', 'list'], { stdio: 'ignore' });
    return { ok: true };
  } catch (err) {
    return {
      ok: false,
      why: `ip netns does not work here (iproute2 missing, or no namespaces): ${err.message}`,
    };
  }
}

/** [command, argv] run inside namespace `name` (as it is when `name` is null). */
function inNetns(name, [command, argv]) {
  return name ? ['ip', ['netns', 'exec', name, command, ...argv]] : [command, argv];
}

/**
 * Makes namespace `name` with its loopback up and `sysctls` ({ 'net.ipv4.tcp_tw_reuse': '0' })
 * set inside it. Resolves { name, remove() }; remove() is safe to call twice.
 */
async function createNetns(name, sysctls = {}) {
  await run('ip', ['netns', 'add', name]);
  const remove = async () => {
    await run('ip', ['netns', 'delete', name]).catch(() => {});
  };
  try {
    await run('ip', ['-n', name, 'link', 'set', 'lo', 'up']);
    for (const [key, value] of Object.entries(sysctls)) {
      await run('ip', ['netns', 'exec', name, 'sysctl', '-qw', `${key}=${value}`]);
    }
  } catch (err) {
    await remove();
    throw new Error(`could not set up network namespace ${name}: ${err.message}`, { cause: err });
  }
  return { name, remove };
}

/**
 * Removes namespaces named `<prefix><pid>` whose process is gone (a run killed before it could
 * clean up). Resolves the names removed.
 */
async function removeStaleNetns(prefix) {
  const { stdout } = await run('ip', ['netns', 'list']);
  const stale = stdout
    .split('\n')
    .map((line) => line.split(/\s+/)[0])
    .filter((name) => name.startsWith(prefix) && !isAlive(Number(name.slice(prefix.length))));
  for (const name of stale) await run('ip', ['netns', 'delete', name]).catch(() => {});
  return stale;
}

/** A file of /proc as a process inside namespace `name` sees it (/proc/net, /proc/sys/net). */
async function readInNetns(name, file) {
  return (await run('ip', ['netns', 'exec', name, 'cat', file])).stdout;
}

module.exports = { netnsSupport, inNetns, createNetns, removeStaleNetns, readInNetns };
