'use strict';
// LAB_ROUTER=gateway's backend (the interface is lib/lab/routers.js): the Gateway API as OpenShift
// implements it, Envoy configured by istiod, on the lab's router ports; the control plane and the
// overlay as the real router's lab has them, the instances in the pod network.
const { startControlPlane } = require('../kube/control-plane');
const { createNamespacesAndRbac, applyOverlay } = require('../kube/bootstrap');
const { installCrds } = require('../kube/crds');
const { apiserverCrds } = require('../../setup/validation-tools');
const { createPodNetwork, joinPodNetwork, podNetworkProblem } = require('../common/pod-network');
const { probeRoute } = require('../common/health');
const { labRoutes } = require('../common/routes');
const { request } = require('../common/client');
const { waitUntil, logTail } = require('../common/stack');
const { findTool } = require('../../core/tools');
const { GATEWAY, startGateway } = require('./index');
const { measureAdmission, routeAdmissions } = require('./admission');
const { createScaleRoutes, waitScaleRoutesServing } = require('./scale-routes');
const KIND = require('./kind');
const { envoyCounters } = require('./counters');

/** What stops it here: the pod network (root) and the tools setup builds. */
function preflight() {
  const errors = [];
  const network = podNetworkProblem();
  if (network) errors.push(network);
  for (const tool of ['kube-apiserver', 'etcd', 'kubectl', 'pilot-discovery', 'envoy']) {
    if (!findTool(tool)) errors.push(`${tool} is not installed: run 'npm run setup -- --for openshift'`);
  }
  if (!findTool('setsid'))
    errors.push('setsid is not installed: install util-linux (Envoy is started through it)');
  return errors;
}

/** The pod network: the API server refuses loopback endpoints, so the instances move there. */
async function configure(lab) {
  const network = await createPodNetwork(lab.labDir);
  joinPodNetwork(lab, network);
  lab.step(
    `Gateway API: Envoy ${KIND.versions.envoy} configured by istiod (${KIND.versions.istio}); ` +
      `pod network ${network.netns} at ${network.podAddress}`,
  );
  // Istio's HTTPS listeners offer h2 and http/1.1; the matrix's h1 cells ask for HTTP/1.1 only.
  return { alpn: 'h2,http/1.1', backendsRunAs: 'processes' };
}

/** Waits until each of the lab's Routes' URLs answers 200 through Envoy. */
async function waitServing(lab) {
  const started = Date.now();
  const servingMs = {};
  await waitUntil(
    async () => {
      for (const route of lab.routes.filter((r) => servingMs[r.name] === undefined)) {
        if ((await probeRoute(route, { labCA: lab.certs.labCA })).ok)
          servingMs[route.name] = Date.now() - started;
      }
      return lab.routes.every((r) => servingMs[r.name] !== undefined);
    },
    {
      timeoutMs: 60000,
      signal: lab.signal,
      what: "every one of the lab's Routes' URLs answering 200 through Envoy",
      diagnose: () => logTail(lab.labDir, 'router') + logTail(lab.labDir, 'istiod'),
    },
  );
  return servingMs;
}

/** The control plane, the overlay, the Gateway; resolves once every Route's URL serves through it. */
async function start(lab, configured) {
  const { labDir, opts, ports, signal, step } = lab;
  step(`Kubernetes API server (kube-apiserver, etcd, RBAC) on https://127.0.0.1:${ports.api}`);
  const cluster = await startControlPlane(labDir, { ports, signal });
  await installCrds(cluster.admin, apiserverCrds(), { signal });
  await createNamespacesAndRbac(cluster.admin);
  step(`kubectl apply -k overlays/${opts.overlay} --kubeconfig ${cluster.kubeconfig}`);
  for (const line of await applyOverlay(opts.overlay, cluster.kubeconfig, { signal })) lab.log(`    ${line}`);
  lab.kube = cluster;
  // istiod and Envoy use the API as themselves, with the bootstrap roles.
  await cluster.ready();
  configured.gateway = await startGateway({
    labDir,
    kube: cluster,
    instances: lab.instances,
    // All of them: the re-encrypt HTTPRoute takes its host even where LAB_OVERLAY serves one.
    routes: labRoutes({ httpPort: ports.http, httpsPort: ports.https }),
    certs: lab.certs,
    address: lab.network.hostAddress,
    ports: {
      http: ports.http,
      https: ports.https,
      admin: ports.envoyAdmin,
      grpc: ports.istiodGrpc,
      istiod: ports.istiodHttp,
      webhook: ports.istiodWebhook,
      monitoring: ports.istiodMonitoring,
    },
    // The lab's router: lab:up records its pid, the matrix samples its CPU.
    envoy: { name: 'router', cpus: lab.cpus.router, concurrency: opts.threads, maxConnections: lab.maxconn },
    signal,
    log: lab.log,
  });
  step("Waiting until each Route's URL answers 200 through Envoy");
  configured.servingMs = await waitServing(lab);
  if (lab.scaleRoutes.length) lab.scaleAdmission = await startScaleRoutes(lab);
}

/** LAB_ROUTES's further routes, as HTTPRoutes: made, then waited for until they serve. */
async function startScaleRoutes(lab) {
  const { scaleRoutes, kube, instances, certs, signal, step } = lab;
  step(
    `${scaleRoutes.length} more HTTPRoutes (LAB_ROUTES=${lab.opts.routes}), each with a Service of its own`,
  );
  await createScaleRoutes(kube.admin, scaleRoutes, instances, { gateway: GATEWAY });
  step(`Waiting until istiod accepts them and the last of each termination answers through Envoy`);
  return waitScaleRoutesServing(kube.admin, scaleRoutes, { labCA: certs.labCA, signal });
}

/** lab.json's `router` for the Gateway: Envoy is the router the matrix measures. */
function describe(lab, configured, { pid, alpn }) {
  const { ports, opts } = lab;
  return {
    kind: KIND.kind,
    pid,
    httpPort: ports.http,
    httpsPort: ports.https,
    adminUrl: `http://127.0.0.1:${ports.envoyAdmin}`,
    threads: opts.threads,
    maxconn: lab.maxconn,
    maxconnRequested: opts.maxconn,
    // The Gateway's certificate is the router's default one (its Secret): the same key.
    key: opts.routerKey,
    envoy: { version: KIND.versions.envoy, istio: KIND.versions.istio },
    // Upstream Envoy's TLS library (envoy --version ends in BoringSSL), for the handshake floor's note.
    tlsLibrary: 'BoringSSL',
    gateway: { name: GATEWAY.name, namespace: GATEWAY.namespace, servingMs: configured.servingMs },
    istiod: configured.gateway.istiod,
    alpn: { policy: configured.alpn, negotiated: alpn },
    http2: true,
    cpus: lab.cpus.router,
    kube: { server: lab.kube.server, kubeconfig: lab.kube.kubeconfig, overlay: opts.overlay },
    network: lab.network,
  };
}

/** lab:up's and lab:status's lines: Envoy, istiod, the API server. */
function statusLines(router) {
  const { kube: api } = router;
  return [
    `Router: Envoy ${router.envoy.version} pid ${router.pid} (${router.threads} worker thread(s), at most ${router.maxconn} connections), configured by istiod ` +
      `(${router.envoy.istio}) from Gateway ${router.gateway.namespace}/${router.gateway.name}`,
    `  admin    ${router.adminUrl} (/stats, /config_dump)`,
    `  API      ${api.server} (overlays/${api.overlay} and overlays/components/gateway-api{,-passthrough} applied)`,
    `  kubectl  kubectl --kubeconfig ${api.kubeconfig} get gateway,httproute,tlsroute -A`,
    `  pods     network namespace ${router.network.netns}, ${router.network.podAddress}`,
  ];
}

/** lab:status's servers: Envoy's endpoints of the data service, as istiod sent them (EDS). */
async function servers(state) {
  const title = "Router servers (Envoy's endpoints from istiod; no health checks, as Istio configures it):";
  try {
    const res = await request(`${state.router.adminUrl}/clusters?format=json`);
    const rows = res
      .json()
      .cluster_statuses.filter((c) => /^outbound\|\d+\|\|data-service\./.test(c.name))
      .flatMap((c) =>
        (c.host_statuses || []).map((h) => ({
          backend: c.name,
          server: `${h.address.socket_address.address}:${h.address.socket_address.port_value}`,
          status: h.health_status.eds_health_status,
        })),
      );
    return { title, rows };
  } catch (err) {
    return {
      title,
      rows: [{ backend: '-', server: '-', status: `Envoy's admin unavailable: ${err.message}` }],
    };
  }
}

const unsupported = (operation) => () => {
  throw new Error(`${operation} with LAB_ROUTER=gateway: ${KIND.unsupported[operation]}`);
};

module.exports = {
  ...KIND,
  selectRoutes: (routes) => routes.filter((r) => KIND.terminations.includes(r.termination)),
  preflight,
  configure,
  start,
  describe,
  reload: unsupported('router-reload'),
  endpointsViaReload: false,
  admission: routeAdmissions,
  measureAdmission,
  // Envoy's one process: its worker threads and main thread.
  processes: (router) => router.pid,
  // istiod, a Deployment of its own on a cluster: its CPU is the Gateway's control-plane cost.
  controlPlane: (router) => router.istiod?.pid ?? null,
  // Envoy's own counters: its admin's /stats.
  counters: (state) => envoyCounters(state.router.adminUrl, state.router.pid),
  servers,
  statusLines,
  describeForResults: (router) => ({ envoy: router.envoy.version, istio: router.envoy.istio }),
};
