'use strict';
// lab:up's cluster steps for LAB_ROUTER=openshift: the control plane, what a cluster has before
// `oc apply -k`, the overlay, the instances as the Service's endpoints; then waiting until the
// router has admitted every Route and each answers 200 through it.
const fs = require('node:fs');
const { startControlPlane } = require('../kube/control-plane');
const {
  createNamespacesAndRbac,
  describeIngressController,
  applyOverlay,
  publishEndpoint,
  createScaleRoutes,
} = require('../kube/bootstrap');
const { routeAdmission, routesPath } = require('../kube/routes-api');
const { installCrds } = require('../kube/crds');
const { apiserverCrds } = require('../../setup/validation-tools');
const { SCALE_LABEL } = require('../common/scale-routes');
const { waitUntil, logTail } = require('../common/stack');
const { probeRoute, lastOfEachServes } = require('../common/health');
const { startNode } = require('../node');
const { clusterK6Command } = require('../node/k6-operator');
const { applyPods, waitPodsReady, podInstances } = require('../node/workloads');
const { ROUTER_IDENTITY } = require('./router-pod');
const { workDir, renderedConfig } = require('./work-dir');

/**
 * LAB_PODS=yes: the node, then the overlay's pods on it; the real EndpointSlice controller
 * publishes them. Resolves the data service's pods as the lab's instances.
 */
async function startPods(lab) {
  const { addresses, images, kubeletPort } = await startNode(lab, lab.kube);
  lab.node = {
    addresses,
    kubeletPort,
    images: images.map((i) => i.ref),
    // The router's pod runs the machine's binaries on it (./router-pod.js).
    baseImage: images.find((i) => i.name === 'base').ref,
    clusterK6: clusterK6Command(lab.kube.kubeconfig, images),
  };
  lab.step(
    `kubectl apply -k of overlays/${lab.opts.overlay} with the images built here (Redis ${lab.opts.redisMode})`,
  );
  for (const line of await applyPods(lab, images)) lab.log(`    ${line}`);
  lab.step('Waiting until every pod is ready (first start: a minute or two)');
  return podInstances(await waitPodsReady(lab), addresses.cgroupRoot);
}

/** Starts the control plane and applies the overlay; resolves lab.kube ({ server, kubeconfig, … }). */
async function startCluster(lab) {
  const { labDir, opts, ports, signal, step } = lab;
  step(`Kubernetes API server (kube-apiserver, etcd, RBAC) on https://127.0.0.1:${ports.api}`);
  const cluster = await startControlPlane(labDir, { ports, signal, pods: opts.pods });
  await installCrds(cluster.admin, apiserverCrds(), { signal });
  await createNamespacesAndRbac(cluster.admin);
  await describeIngressController(cluster.admin, { threads: opts.threads, signal });
  if (opts.pods) {
    lab.kube = cluster;
    // The node's components use the API as themselves, with the bootstrap roles.
    await cluster.ready();
    lab.instances = await startPods(lab);
  } else {
    step(`kubectl apply -k overlays/${opts.overlay} --kubeconfig ${cluster.kubeconfig}`);
    for (const line of await applyOverlay(opts.overlay, cluster.kubeconfig, { signal }))
      lab.log(`    ${line}`);
    step(`EndpointSlices for ${lab.instances.map((i) => `${i.name} (${i.host})`).join(', ')}`);
    for (const instance of lab.instances) await publishEndpoint(cluster.admin, instance);
  }
  if (lab.scaleRoutes.length) {
    // Admitted already, as by the router pod before this one: the router writes no status for
    // them. A fresh set waits for each status write at client-go's default limit, 5 a second
    // (docs/figures.md#the-route-count).
    step(
      `${lab.scaleRoutes.length} more Routes (LAB_ROUTES=${opts.routes}), each with a Service of its own, admitted by an earlier router pod`,
    );
    await createScaleRoutes(cluster.admin, lab.scaleRoutes, lab.instances, { admittedBy: ROUTER_IDENTITY });
  }
  // The router uses the API as its service account, with the bootstrap roles.
  await cluster.ready();
  return cluster;
}

/**
 * Why a re-encrypt Route cannot serve on this HAProxy, or '': from 3.3 on a TLS server sends the
 * request's Host as SNI (sni-auto) and verifies the certificate against it, not against
 * verifyhost; openshift-router's template sets neither `sni` nor `no-sni-auto`.
 */
function sniAutoHint(haproxy, waiting) {
  if (!haproxy?.sniAuto || !waiting.some((r) => r.termination === 'reencrypt')) return '';
  return (
    `\nHAProxy ${haproxy.version} sends each request's Host as SNI to a TLS server (sni-auto, 3.3 and later) ` +
    "and verifies the service's certificate against that name instead of verifyhost; openshift-router's " +
    'template sets no sni and no no-sni-auto, so a re-encrypt Route to a service-CA certificate answers 503 ' +
    '(docs/figures.md#haproxy-versions)'
  );
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
        const waiting = routes.filter((r) => times[r.name]?.servingMs === undefined);
        const names = waiting.map((r) => r.name).join(', ');
        return `\nnot yet: ${names}${sniAutoHint(lab.haproxy, waiting)}${logTail(labDir, 'router')}`;
      },
    },
  );
  return times;
}

/** Whether the router's rendered configuration has a server for each instance in `count` backends. */
function everyInstanceRendered(labDir, instances, count) {
  let lines;
  try {
    lines = fs.readFileSync(renderedConfig(workDir(labDir)), 'utf8').split('\n');
  } catch {
    return false; // not rendered yet
  }
  const servers = lines.map((l) => l.trim()).filter((l) => l.startsWith('server pod:'));
  return instances.every((i) => servers.filter((l) => l.startsWith(`server pod:${i.name}:`)).length >= count);
}

/**
 * LAB_ROUTES's extra Routes: waits until every one is still admitted (they carry an earlier router
 * pod's admission, createScaleRoutes' admittedBy; a Route the router rejects loses it), the last of
 * each termination answers 200 through it and every Route's backend has every instance. Resolves {
 * servingMs } from here: the time to an admission the lab wrote would say nothing of the router.
 */
async function waitScaleRoutesServing(lab) {
  const { kube, scaleRoutes, routes, instances, labDir, signal, step, certs } = lab;
  step(
    `Waiting until each termination's last of the ${scaleRoutes.length} more Routes (admitted by an earlier router pod) answers 200, every instance in every Route's backend`,
  );
  const started = Date.now();
  let servingMs;
  const selector = encodeURIComponent(`${SCALE_LABEL}=true`);
  let admitted = 0;
  await waitUntil(
    async () => {
      if (admitted < scaleRoutes.length) {
        const list = await kube.admin.get(`${routesPath()}?labelSelector=${selector}`);
        admitted = list.items.filter((r) =>
          (r.status?.ingress || []).some((i) =>
            (i.conditions || []).some((c) => c.type === 'Admitted' && c.status === 'True'),
          ),
        ).length;
        if (admitted < scaleRoutes.length) return false;
      }
      if (!(await lastOfEachServes(scaleRoutes, { labCA: certs.labCA }))) return false;
      // A Route serves from its first endpoint: the others reach the router over more reloads.
      if (!everyInstanceRendered(labDir, instances, scaleRoutes.length + routes.length)) return false;
      servingMs = Date.now() - started;
      return true;
    },
    {
      // Loading hundreds of Routes, the router's first configuration takes a few seconds more.
      timeoutMs: 60000 + 100 * scaleRoutes.length,
      intervalMs: 250,
      signal,
      what: `all ${scaleRoutes.length} more Routes admitted and serving from every instance`,
      diagnose: () => `\nadmitted so far: ${admitted}${logTail(labDir, 'router')}`,
    },
  );
  return { servingMs };
}

module.exports = { startCluster, waitAdmittedAndServing, waitScaleRoutesServing, sniAutoHint };
