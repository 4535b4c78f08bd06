'use strict';
// lab:rollout: a rolling restart of the data-service instances, one at a time, watching the
// router's health checks take each one out of rotation before it exits and put it back after.
const { setTimeout: sleep } = require('node:timers/promises');
const { resolveLabOptions } = require('../common/options');
const { startServices, waitUntil } = require('../common/stack');
const { listRecords, stopRecorded } = require('../common/pids');
const { readLabState, writeLabState } = require('../common/state');
const { backendServers } = require('../common/health');
const { routerPaths } = require('../haproxy/router-config');
const { reload } = require('../reload');
const { backendOf } = require('../routers');
const { unsupportedOn } = require('../common/router-kinds');
const { rolloutPods } = require('../node/rollout');

/** The router's view of one instance: the status of its server in each of the four backends. */
async function instanceServerStates(state, instance) {
  const ports = [`:${instance.port}`, `:${instance.tlsPort}`];
  const servers = await backendServers(routerPaths(state.labDir).runtimeSocket, state.routes);
  return servers.filter((s) => ports.some((p) => s.server.endsWith(p))).map((s) => s.status);
}

/**
 * A rolling restart, like `oc rollout restart deployment/data-service`: one instance at a time,
 * SIGTERM (it turns unready, the router takes it out, it drains and exits), start it again on
 * the same ports, and wait until the router has it UP in every backend before the next one.
 * `viaReload`: the router drops the instance and takes it back through reloads (lab:reload
 * without it, then with it), as OpenShift's router does when a pod leaves and rejoins the
 * service's endpoints, instead of noticing through its health checks.
 */
async function rollout({ env = process.env, log = console.log, signal, viaReload: asked = false } = {}) {
  const { labDir } = resolveLabOptions(env);
  const state = readLabState(labDir);
  if (!state) throw new Error(`no lab is running in ${labDir}: run 'npm run lab:up' first`);
  const refused = unsupportedOn(state.router, 'rollout');
  if (refused) throw new Error(`lab:rollout: ${refused}`);
  // LAB_PODS=yes: the instances are a Deployment's pods, rolled out by Kubernetes.
  if (state.router.node) return rolloutPods(labDir, { log, signal });
  // A router that learns of a pod leaving from its endpoints (the real one, as on a cluster).
  const viaReload = asked || backendOf(state.router).endpointsViaReload;
  for (const [i, instance] of state.instances.entries()) {
    signal?.throwIfAborted();
    const record = listRecords(labDir).find((r) => r.name === instance.name);
    const begin = Date.now();
    let outAt = null;
    if (viaReload) {
      await reload({ env, signal, exclude: [instance.name] });
      outAt = Date.now();
      log(
        `• ${instance.name}: out of the router's configuration (reload without it) after ${outAt - begin} ms`,
      );
    }
    log(`• ${instance.name}: SIGTERM; it answers /readyz 503 and keeps serving ${state.drainDelayMs} ms`);
    // Watch the router while the instance drains: did it leave the rotation before it exited?
    let exited = !record;
    const stopping = record
      ? stopRecorded(labDir, record, { timeoutMs: state.drainDelayMs + 10000 }).finally(() => (exited = true))
      : Promise.resolve();
    while (!exited && outAt === null) {
      const statuses = await instanceServerStates(state, instance).catch(() => []);
      if (statuses.length && statuses.every((st) => st.startsWith('DOWN'))) outAt = Date.now();
      else await sleep(100);
    }
    await stopping;
    log(
      outAt === null
        ? `  exited after ${Date.now() - begin} ms, BEFORE the router took it out of rotation: ` +
            `requests sent to it meanwhile may have failed (LAB_DRAIN_DELAY_MS is too short)`
        : `  out of rotation after ${outAt - begin} ms, exited after ${Date.now() - begin} ms`,
    );
    log(`  starting it again on :${instance.port} and :${instance.tlsPort}`);
    const started = await startInstanceAgain(state, instance, { signal });
    if (viaReload) {
      await reload({ env, signal, restarted: [instance.name] });
      log(`  back in the router's configuration (reload with it)`);
    } else if (outAt === null) {
      // The router never marked it DOWN, so "UP" below would be stale: let a full round of
      // checks (rise 2) reach the new process first.
      await sleep(2 * state.router.checkIntervalMs, undefined, { signal });
    }
    await waitUntil(
      async () => {
        const statuses = await instanceServerStates(state, instance);
        return statuses.length === state.routes.length && statuses.every((st) => st === 'UP');
      },
      { timeoutMs: 30000, what: `the router marking ${instance.name} UP again`, signal, intervalMs: 100 },
    );
    log(`  ready and back in rotation (${Date.now() - begin} ms in all)`);
    // Read afresh: a reload meanwhile recorded the router's new pid.
    const now = readLabState(labDir);
    now.instances[i] = { ...instance, pid: started.pid };
    writeLabState(labDir, now);
  }
  return readLabState(labDir);
}

/** Starts one of the lab's data-service instances again, as lab.json (`state`) describes it. */
async function startInstanceAgain(state, instance, { signal } = {}) {
  const [started] = await startServices(state.labDir, {
    instances: [instance],
    redis: state.redis,
    certs: state.certs,
    logLevel: state.logLevel,
    drainDelayMs: state.drainDelayMs,
    cpus: instance.cpus,
    signal,
    netns: state.router.network?.netns ?? null,
  });
  return started;
}

module.exports = { rollout, instanceServerStates, startInstanceAgain };
