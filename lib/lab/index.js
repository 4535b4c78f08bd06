'use strict';
// The local lab's programmatic API: up (up.js), down, status, rollout and reload. The lab:* commands
// and the matrix use it; options come from LAB_* knobs in `env` (default process.env).
const fs = require('node:fs');
const { resolveLabOptions } = require('./common/options');
const { routerPaths } = require('./haproxy/router-config');
const { listRecords, processState, forgetDrainedRouters } = require('./common/pids');
const { readLabState, removeLabState } = require('./common/state');
const { probeRoute, probeInstance } = require('./common/health');
const { up } = require('./up');
const { stopAll } = require('./common/stop');
const { rollout } = require('./faults/rolling-restart');
const { reload } = require('./reload');
const { backendOf } = require('./routers');

/** Stops exactly what lab:up started (by pid file and record), even if some already died. */
async function down({ env = process.env, log = console.log } = {}) {
  const { labDir, drainDelayMs } = resolveLabOptions(env);
  const state = readLabState(labDir);
  // A draining instance keeps serving for its drain delay before it exits: wait that long.
  const stopped = await stopAll(labDir, log, {
    timeoutMs: (state ? state.drainDelayMs : drainDelayMs) + 10000,
  });
  removeLabState(labDir);
  fs.rmSync(routerPaths(labDir).runDir, { recursive: true, force: true });
  return { labDir, stopped };
}

/**
 * The lab's state with live health: { running, labDir, state, processes, routes, servers,
 * leftovers }. `running` is true when lab.json exists and every process and route is healthy.
 */
async function status({ env = process.env } = {}) {
  const { labDir } = resolveLabOptions(env);
  const state = readLabState(labDir);
  forgetDrainedRouters(labDir);
  const records = listRecords(labDir);
  if (!state) {
    return {
      running: false,
      labDir,
      state: null,
      leftovers: records
        .filter((r) => processState(r) === 'running')
        .map((r) => ({ name: r.name, pid: r.pid })),
    };
  }
  const instancesByName = Object.fromEntries(state.instances.map((i) => [i.name, i]));
  const processes = await Promise.all(
    records.map(async (r) => {
      const alive = processState(r);
      let health = alive === 'running' ? 'running' : alive === 'foreign' ? 'gone (pid reused)' : 'gone';
      if (alive === 'running' && instancesByName[r.name])
        health = await probeInstance(instancesByName[r.name]);
      const cpus =
        { router: state.router.cpus, redis: state.redis.cpus }[r.role] ??
        (instancesByName[r.name] || {}).cpus;
      return { name: r.name, role: r.role, pid: r.pid, health, cpus: cpus || null };
    }),
  );
  const routes = await Promise.all(
    state.routes.map(async (route) => ({
      ...route,
      probe: await probeRoute(route, { labCA: state.certs.labCA }),
    })),
  );
  const servers = await backendOf(state.router).servers(state);
  const admission = await backendOf(state.router).admission(state);
  const running =
    processes.every((p) => p.health === 'running' || p.health === 'ready') && routes.every((r) => r.probe.ok);
  return { running, labDir, state, processes, routes, servers, admission, leftovers: [] };
}

module.exports = { up, down, status, rollout, reload, readLabState, resolveLabOptions };
