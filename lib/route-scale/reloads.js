'use strict';
// Reloads under a steady keep-alive load, each caused by one Route change through the API: the
// router's render and reload times, change to new HAProxy, HAProxy's parse time; then the old
// processes, their memory and how long they live (bounded by hard-stop-after).
const fs = require('node:fs');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { setTimeout: sleep } = require('node:timers/promises');
const { adminClient } = require('../lab/kube/control-plane');
const { routesPath } = require('../lab/kube/routes-api');
const { RELOAD_ANNOTATION } = require('../lab/openshift-router/reload');
const { servingHaproxy } = require('../lab/openshift-router/processes');
const { waitUntil } = require('../lab/common/stack');
const { reloadCounters, reloadsBetween, haproxyMemory } = require('../lab/openshift-router/router-metrics');
const { watchHaproxyDuring } = require('./haproxy-watch');
const { inMountNamespace } = require('../lab/node/mount-namespace');
const { renderedConfig } = require('../lab/openshift-router/work-dir');

const run = promisify(execFile);

/** The router's configuration and HAProxy as its mount namespace sees them (reload-haproxy's). */
const ROUTER_CONFIG = '/var/lib/haproxy/conf/haproxy.config';
const ROUTER_HAPROXY = '/usr/sbin/haproxy';

/** [file, args] of `haproxy -c` on the router's configuration in its mount namespace, where its paths resolve. */
const checkCommand = (routerPid, quiet = true) =>
  inMountNamespace(routerPid, ROUTER_HAPROXY, ['-c', ...(quiet ? ['-q'] : []), '-f', ROUTER_CONFIG]);

const checkConfig = (routerPid, quiet = true) => run(...checkCommand(routerPid, quiet));

/**
 * The children's CPU in ms (user + system) from what bash's `times` printed: the shell's own line,
 * then its children's, "0m0.041s 0m0.012s".
 */
function childrenCpuMs(timesOutput) {
  const children = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(timesOutput);
  if (!children) throw new Error(`bash's times printed no children's line: ${timesOutput}`);
  const [, um, us, sm, ss] = children.map(Number);
  return Number(((um * 60 + us + sm * 60 + ss) * 1000).toFixed(3));
}

/**
 * checkConfig's CPU time in ms, from bash's `times` after it: CPU, not wall time, because the other
 * Jest workers of a busy machine stretch the wall time of a 50 ms parse severalfold.
 */
async function checkConfigCpuMs(routerPid) {
  const [file, args] = checkCommand(routerPid);
  const { stdout } = await run('bash', ['-c', '"$@" || exit; times', 'bash', file, ...args]);
  return childrenCpuMs(stdout);
}

/**
 * HAProxy's CPU to parse and check the router's configuration: the least of `times` runs, in ms,
 * since the machine's other work can only add to it. The router rewrites the file in place
 * (truncate, then the template): the runs start on a quiet router, and one that overlapped a rewrite
 * anyway (the file changed under it) is taken again once it is quiet; any other failure says
 * HAProxy's own words.
 */
async function parseMs(state, { times = 5, signal } = {}) {
  const file = renderedConfig(state.router.workDir);
  const runs = [];
  let waitForQuiet = true;
  for (let attempt = 1; runs.length < times; attempt++) {
    if (attempt > 2 * times)
      throw new Error(
        `haproxy -c: the router rewrote its configuration during ${attempt - 1 - runs.length} of ${attempt - 1} checks`,
      );
    if (waitForQuiet) await waitQuiet(state, { signal });
    const before = fs.statSync(file).mtimeMs;
    try {
      const ms = await checkConfigCpuMs(state.router.pid);
      // A rewrite under a run that passed may have cut the file short: a run too quick to count.
      waitForQuiet = fs.statSync(file).mtimeMs !== before;
      if (!waitForQuiet) runs.push(ms);
    } catch (err) {
      waitForQuiet = fs.statSync(file).mtimeMs !== before;
      if (waitForQuiet) continue;
      const said = await checkConfig(state.router.pid, false).catch((e) => e);
      throw new Error(
        `haproxy -c refused the router's configuration: ${(said.stderr || err.message).trim()}`,
        { cause: err },
      );
    }
  }
  return Number(Math.min(...runs).toFixed(1));
}

/**
 * Waits until the router has not reloaded for its reload interval (and half a second), so that the
 * next change is applied at once rather than held back: the reload measured is the change's own.
 */
async function waitQuiet(state, { signal }) {
  const quietMs = state.router.reloadIntervalS * 1000 + 500;
  let last = (await reloadCounters(state.router)).reloads;
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    await sleep(250, undefined, { signal });
    const now = (await reloadCounters(state.router)).reloads;
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

/** One Route change (an annotation on `routeName`), timed until the new HAProxy serves and the router has counted the reload. */
async function oneReload(state, client, routeName, { signal }) {
  const timeoutMs = state.router.reloadIntervalS * 1000 * 3 + 30000;
  const before = await reloadCounters(state.router);
  const pidBefore = servingHaproxy(state.router.pid);
  const begin = Date.now();
  const body = { metadata: { annotations: { [RELOAD_ANNOTATION]: new Date().toISOString() } } };
  await client.call('PATCH', `${routesPath()}/${routeName}`, {
    body,
    contentType: 'application/merge-patch+json',
  });
  await waitUntil(async () => (servingHaproxy(state.router.pid) ?? pidBefore) !== pidBefore, {
    timeoutMs,
    what: 'a new HAProxy serving after a Route change',
    signal,
    intervalMs: 10,
  });
  const changeToServingMs = Date.now() - begin;
  let after;
  await waitUntil(async () => (after = await reloadCounters(state.router)).reloads > before.reloads, {
    timeoutMs,
    what: 'the router counting its reload in /metrics',
    signal,
    intervalMs: 50,
  });
  const { count, renderMs, reloadMs } = reloadsBetween(before, after);
  return { changeToServingMs, renderMs, reloadMs, reloads: count };
}

/**
 * `count` reloads, each once the router is quiet (waitQuiet), then a wait for the old processes to
 * exit (hard-stop-after bounds it). Resolves { reloads: [...], haproxy (haproxy-watch summary) }.
 */
async function reloadCycles(state, { count, hardStopAfterS, signal, log = () => {} }) {
  const client = adminClient(state.labDir);
  const routeName = state.routes[0].name;
  const reloads = [];
  const { haproxy } = await watchHaproxyDuring(state.router.pid, async () => {
    for (let i = 1; i <= count; i++) {
      await waitQuiet(state, { signal });
      const r = await oneReload(state, client, routeName, { signal });
      log(
        `    reload ${i}/${count}: render ${r.renderMs} ms, reload ${r.reloadMs} ms, change to new HAProxy ${r.changeToServingMs} ms`,
      );
      reloads.push(r);
    }
    // The last old process lives until its connections close or hard-stop-after stops it.
    const deadline = Date.now() + ((hardStopAfterS ?? 0) + 3) * 1000;
    while (Date.now() < deadline && haproxyMemory(state.router.pid).length > 1) {
      await sleep(200, undefined, { signal });
    }
  });
  return { reloads, haproxy };
}

module.exports = { reloadCycles, parseMs, childrenCpuMs, waitQuiet, ROUTER_CONFIG };
