'use strict';
// Is the lab healthy? Probes each Route through the router, each data-service instance directly,
// and reads HAProxy's own view of its servers from its runtime API (both routers have one).
const fs = require('node:fs');
const { request, instanceUrl } = require('./client');
const { showStat } = require('../haproxy/runtime-api');

/**
 * GET <route>/api/whoami through the router, on a connection of its own: { ok, status, instance,
 * error }. Node's global agent keeps connections alive, and one kept from before a reload belongs
 * to the old HAProxy, which closes it as it finishes: a probe asks about the router serving now.
 */
async function probeRoute(route, { labCA, timeoutMs = 3000 } = {}) {
  try {
    const res = await request(`${route.url}/api/whoami`, {
      ca: labCA ? fs.readFileSync(labCA) : undefined,
      timeoutMs,
      agent: false,
      // Passthrough serves the service's own certificate (for data-service.router-lab.svc), which a
      // client that trusts only the lab CA rejects. The probe is about reachability, not trust.
      ...(route.termination === 'passthrough' ? { rejectUnauthorized: false } : {}),
    });
    let instance = null;
    try {
      instance = res.json().instance;
    } catch {
      // not JSON: reported through status
    }
    return { ok: res.status === 200, status: res.status, instance, headers: res.headers };
  } catch (err) {
    return { ok: false, status: null, error: err.message };
  }
}

/** Whether the last Route of each termination in `routes` answers 200 (a sample of many). */
async function lastOfEachServes(routes, { labCA }) {
  const last = Object.values(Object.fromEntries(routes.map((r) => [r.termination, r])));
  const probes = await Promise.all(last.map((r) => probeRoute(r, { labCA })));
  return probes.every((p) => p.ok);
}

/** GET /readyz on an instance's plain port: 'ready', 'not ready (503)' or the error. */
async function probeInstance(instance) {
  try {
    const res = await request(instanceUrl(instance, '/readyz'), { timeoutMs: 2000 });
    return res.status === 200 ? 'ready' : `not ready (${res.status})`;
  } catch (err) {
    return `not answering (${err.code || err.message})`;
  }
}

/** The servers of the lab's route backends with HAProxy's status (UP, DOWN, MAINT...). */
async function backendServers(runtimeSocket, routes) {
  const backends = new Set(routes.map((r) => r.backend));
  const rows = await showStat(runtimeSocket);
  return rows
    .filter((r) => backends.has(r.pxname) && r.svname !== 'BACKEND' && r.svname !== 'FRONTEND')
    .map((r) => ({ backend: r.pxname, server: r.svname, status: r.status }));
}

/** lab:status's servers for an HAProxy router: its health checks' view, or why it is unavailable. */
async function haproxyServers(runtimeSocket, routes) {
  const title = 'Router servers (HAProxy health checks on /readyz):';
  try {
    return { title, rows: await backendServers(runtimeSocket, routes) };
  } catch (err) {
    return { title, rows: [{ backend: '-', server: '-', status: `stats unavailable: ${err.message}` }] };
  }
}

module.exports = {
  lastOfEachServes,
  probeRoute,
  probeInstance,
  backendServers,
  haproxyServers,
};
