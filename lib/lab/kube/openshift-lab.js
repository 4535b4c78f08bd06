'use strict';
// lab:up's cluster steps for LAB_ROUTER=openshift: the control plane, what a cluster has before
// `oc apply -k`, the overlay, the instances as the Service's endpoints; then waiting until the
// router has admitted every Route and each answers 200 through it.
const { startControlPlane } = require('./control-plane');
const {
  installCrds,
  createNamespacesAndRbac,
  describeIngressController,
  applyOverlay,
  publishEndpoint,
} = require('./bootstrap');
const { routeAdmission } = require('./routes-api');
const { waitUntil, logTail } = require('../stack');
const { probeRoute } = require('../health');

/** Starts the control plane and applies the overlay; resolves lab.kube ({ server, kubeconfig, … }). */
async function startCluster(lab) {
  const { labDir, opts, ports, signal, step } = lab;
  step(`Kubernetes API server (kube-apiserver, etcd, RBAC) on https://127.0.0.1:${ports.api}`);
  const cluster = await startControlPlane(labDir, { ports, signal });
  await installCrds(cluster.admin, { signal });
  await createNamespacesAndRbac(cluster.admin);
  await describeIngressController(cluster.admin, { threads: opts.threads, signal });
  step(`kubectl apply -k overlays/${opts.overlay} --kubeconfig ${cluster.kubeconfig}`);
  for (const line of await applyOverlay(opts.overlay, cluster.kubeconfig, { signal })) lab.log(`    ${line}`);
  step(`EndpointSlices for ${lab.instances.map((i) => `${i.name} (${i.host})`).join(', ')}`);
  for (const instance of lab.instances) await publishEndpoint(cluster.admin, instance);
  return cluster;
}

/**
 * Waits until every Route of the lab is admitted and answers 200 through the router. Resolves
 * how long each took from here: { [name]: { admittedMs, servingMs } }. A Route the router
 * rejects fails at once with the router's reason.
 */
async function waitAdmittedAndServing(lab) {
  const { kube, routes, labDir, signal, step, certs } = lab;
  step('Waiting until the router admits every Route and each answers 200 through it');
  const started = Date.now();
  const times = {};
  await waitUntil(
    async () => {
      for (const route of routes) {
        const t = (times[route.name] ??= {});
        if (t.admittedMs === undefined) {
          const admission = await routeAdmission(kube.admin, route.name);
          if (admission.rejected) {
            const err = new Error(
              `the router rejected Route ${route.name}: ${admission.reason}: ${admission.message}`,
            );
            err.fatal = true;
            throw err;
          }
          if (admission.admitted) t.admittedMs = Date.now() - started;
        }
        if (t.admittedMs !== undefined && t.servingMs === undefined) {
          if ((await probeRoute(route, { labCA: certs.labCA })).ok) t.servingMs = Date.now() - started;
        }
      }
      return routes.every((r) => times[r.name].servingMs !== undefined);
    },
    {
      timeoutMs: 60000,
      intervalMs: 100,
      signal,
      what: 'every Route admitted and answering 200',
      diagnose: () => {
        const waiting = routes.filter((r) => times[r.name]?.servingMs === undefined).map((r) => r.name);
        return `\nnot yet: ${waiting.join(', ')}${logTail(labDir, 'router')}`;
      },
    },
  );
  return times;
}

module.exports = { startCluster, waitAdmittedAndServing };
