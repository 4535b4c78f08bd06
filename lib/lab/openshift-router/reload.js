'use strict';
// lab:reload with the real router (LAB_ROUTER=openshift) is a change through the API, as on a
// cluster, which openshift-router turns into a reload. An instance left out is withdrawn from every
// Service's endpoints; one put back is published again (as a new pod after a restart).
const { adminClient } = require('../kube/control-plane');
const { routesPath } = require('../kube/routes-api');
const { publishEndpoint, withdrawEndpoint, newPodName } = require('../kube/bootstrap');
const { servingHaproxy } = require('./processes');
const { waitUntil } = require('../common/stack');
const { SERVICE_NAME } = require('../common/routes');
const { writeLabState } = require('../common/state');

const RELOAD_ANNOTATION = 'router-lab.io/reload-requested';

/** Annotates every lab Route: any Route change makes the router render and reload. */
async function touchRoutes(client, state) {
  const at = new Date().toISOString();
  for (const route of state.routes) {
    const url = `${routesPath()}/${route.name}`;
    const body = { metadata: { annotations: { [RELOAD_ANNOTATION]: at } } };
    await client.call('PATCH', url, { body, contentType: 'application/merge-patch+json' });
  }
}

/**
 * Reloads the real router through the API (see the top); an instance named in `restarted` is
 * published as a new pod, as a rollout's. Resolves { pid, oldPids, ms, reloads } like the template
 * router's reload: the HAProxy serving after, the one serving before.
 */
async function reloadThroughApi(state, { exclude = [], restarted = [], signal, log = () => {} } = {}) {
  const client = adminClient(state.labDir);
  const before = servingHaproxy(state.router.pid);
  const begin = Date.now();
  const withdrawn = state.instances.filter((i) => exclude.includes(i.name));
  // Every Service the instance backs: the data service's and LAB_ROUTES's further ones.
  const services = [SERVICE_NAME, ...(state.scaleRoutes?.routes ?? []).map((r) => r.name)];
  const pods = Object.fromEntries(
    state.instances.filter((i) => restarted.includes(i.name)).map((i) => [i.name, newPodName(i)]),
  );
  if (exclude.length || state.router.withdrawn?.length) {
    for (const instance of state.instances) {
      if (withdrawn.includes(instance)) await withdrawEndpoint(client, instance, { services });
      else await publishEndpoint(client, instance, { services, pod: pods[instance.name] });
    }
  } else {
    await touchRoutes(client, state);
  }
  let pid = null;
  await waitUntil(
    async () => {
      pid = servingHaproxy(state.router.pid);
      return pid && pid !== before;
    },
    {
      timeoutMs: state.router.reloadIntervalS * 1000 * 3 + 10000,
      what: 'the router reloading',
      signal,
      intervalMs: 20,
    },
  );
  const ms = Date.now() - begin;
  state.router.reloads = (state.router.reloads || 0) + 1;
  state.router.withdrawn = withdrawn.map((i) => i.name);
  writeLabState(state.labDir, state);
  log(`• router reloaded through the API: HAProxy pid ${pid} serves, ${before} finishing (${ms} ms)`);
  return { pid, oldPids: [before], ms, reloads: state.router.reloads };
}

module.exports = { reloadThroughApi, RELOAD_ANNOTATION };
