'use strict';
// LAB_ROUTER=openshift's router backend (the interface is lib/lab/routers.js): openshift-router
// itself, admitting the Routes kubectl applied, in private mount and PID namespaces
// (./processes.js), changed through the API as on a cluster.
const fs = require('node:fs');
const crypto = require('node:crypto');
const { routerBin, ROUTER_PINS } = require('../../setup/openshift-router-build');
const { launchMonitoring, monitoringReady, SCRAPE_INTERVAL_S } = require('./monitoring');
const { intermediateProfile, supportedGroups } = require('../haproxy/tls-profile');
const { alpnPolicy, routerPaths, routeBalances } = require('../haproxy/router-config');
const { APPS_DOMAIN } = require('../common/routes');
const { launch, assertRunning, waitUntil, logTail } = require('../common/stack');
const { pidFile, recordProcess, logFile } = require('../common/pids');
const { haproxySummary } = require('../haproxy/binary');
const { tlsLine, sizingLine } = require('../common/router-lines');
const { request } = require('../common/client');
const { haproxyServers } = require('../common/health');
const { createPodNetwork, joinPodNetwork } = require('../common/pod-network');
const { workDir, prepareWorkDir } = require('./work-dir');
const { startRouterPod, ROUTER_IDENTITY } = require('./router-pod');
const { nodeAddresses } = require('../node/addresses');
const { namespacedCommand, routerInit } = require('./processes');
const { reloadThroughApi } = require('./reload');
const { routeAdmissions, measureAdmission } = require('./admission');
const { openshiftPreflight } = require('./preflight');
const kube = require('./cluster');
const KIND = require('./kind');
const { haproxyCounters } = require('../haproxy/counters');

/** The router's environment, as the ingress operator sets it, from the lab's knobs. */
function routerEnv(lab, { tls, stats }) {
  const { opts, ports, certs } = lab;
  return {
    PATH: process.env.PATH,
    KUBECONFIG: lab.kube.routerKubeconfig,
    TEMPLATE_FILE: '/var/lib/haproxy/conf/haproxy-config.template',
    RELOAD_SCRIPT: '/var/lib/haproxy/reload-haproxy',
    RELOAD_INTERVAL: `${opts.reloadIntervalS}s`,
    ROUTER_SERVICE_HTTP_PORT: String(ports.http),
    ROUTER_SERVICE_HTTPS_PORT: String(ports.https),
    STATS_PORT: String(ports.stats),
    ROUTER_LISTEN_ADDR: `127.0.0.1:${ports.stats}`,
    ROUTER_METRICS_TYPE: 'haproxy',
    // The router reads HAProxy's counters for /metrics at most every 5 s by default; the lab's
    // Prometheus scrapes every second (lib/lab/openshift-router/monitoring.js), so the router reads as often.
    ROUTER_METRICS_HAPROXY_BASE_SCRAPE_INTERVAL: `${SCRAPE_INTERVAL_S}s`,
    STATS_USERNAME: stats.username,
    STATS_PASSWORD: stats.password,
    ROUTER_THREADS: String(opts.threads),
    ROUTER_MAX_CONNECTIONS: String(lab.maxconn),
    ROUTER_SUBDOMAIN: `\${name}-\${namespace}.${APPS_DOMAIN}`,
    ROUTER_DOMAIN: APPS_DOMAIN,
    ROUTER_SERVICE_NAME: ROUTER_IDENTITY.routerName,
    ROUTER_SERVICE_NAMESPACE: 'openshift-ingress',
    ROUTER_CANONICAL_HOSTNAME: ROUTER_IDENTITY.canonicalHostname,
    DEFAULT_CERTIFICATE_PATH: certs.defaultPem,
    DEFAULT_DESTINATION_CA_PATH: certs.serviceCA,
    ROUTER_CIPHERS: tls.ciphers,
    ROUTER_CIPHERSUITES: tls.ciphersuites,
    SSL_MIN_VERSION: 'TLSv1.2',
    ...(tls.groups.length ? { ROUTER_CURVES: tls.groups.join(':') } : {}),
    ROUTER_DISABLE_HTTP2: String(!opts.http2),
    ROUTER_SET_FORWARDED_HEADERS: 'append',
    ROUTER_TCP_BALANCE_SCHEME: 'source',
    ROUTER_LOAD_BALANCE_ALGORITHM: 'random',
    ROUTER_USE_PROXY_PROTOCOL: 'false',
    ROUTER_IP_V4_V6_MODE: 'v4',
    ...(opts.hardStopAfterS ? { ROUTER_HARD_STOP_AFTER: `${opts.hardStopAfterS}s` } : {}),
    ...(opts.configManager ? { ROUTER_HAPROXY_CONFIG_MANAGER: 'true' } : {}),
    // The ingress operator's rendering of idleConnectionTerminationPolicy: Deferred.
    ...(opts.idleClose === 'deferred' ? { ROUTER_IDLE_CLOSE_ON_RESPONSE: 'true' } : {}),
    // The 45 s default waits for a cloud load balancer to drop the router; the lab has none, and
    // lab:down stops the router before anything else (the router's own 1 s settle stays).
    ROUTER_GRACEFUL_SHUTDOWN_DELAY: '0s',
  };
}

/**
 * The pod network, the working directory and the router's environment. The instances move to the
 * pod network's address: the API server refuses loopback endpoints.
 */
async function configure(lab) {
  const { labDir, opts, certs, haproxy } = lab;
  const release = opts.openshiftRelease;
  // With pods, the router also listens on the node's address: the pods reach it there.
  prepareWorkDir(labDir, release, ['127.0.0.1', ...(opts.pods ? [nodeAddresses(labDir).gateway] : [])]);
  const network = opts.pods ? null : await createPodNetwork(labDir);
  if (network) {
    joinPodNetwork(lab, network);
  } else {
    // LAB_PODS=yes: the instances and Redis are pods, known once they run (./cluster.js).
    lab.instances = [];
    lab.redisPorts = [];
  }
  const profile = intermediateProfile(release);
  const groups = profile.groups
    ? supportedGroups(haproxy.path, profile.groups, certs.defaultPem)
    : { supported: [], missing: [] };
  const tls = {
    openshiftRelease: release,
    ...profile,
    groups: groups.supported,
    groupsMissing: groups.missing,
  };
  const stats = { username: 'admin', password: crypto.randomBytes(12).toString('hex') };
  lab.step(
    `openshift-router ${ROUTER_PINS[release].branch} (${ROUTER_PINS[release].commit.slice(0, 12)}) on HAProxy ` +
      `${haproxy.version} (${haproxy.openssl}); ` +
      (network
        ? `pod network ${network.netns} at ${network.podAddress}`
        : 'the pods on a node of the lab (LAB_PODS)'),
  );
  return {
    release,
    tls,
    stats,
    alpn: alpnPolicy(opts.http2),
    workDir: workDir(labDir),
    backendsRunAs: opts.pods ? 'pods' : 'processes',
  };
}

/** Starts openshift-router and records its init process as the lab's router. */
async function startRouterProcess(lab, configured) {
  const { labDir, signal } = lab;
  const { file, args } = namespacedCommand(labDir, {
    haproxy: lab.haproxy.path,
    release: configured.release,
  });
  const outer = launch(labDir, {
    name: 'router',
    role: 'router',
    file,
    args,
    env: routerEnv(lab, configured),
    cpus: lab.cpus.router,
    match: 'unshare',
  });
  let pid = null;
  await waitUntil(
    async () => {
      assertRunning(labDir, outer);
      pid = routerInit(outer.pid, routerBin(configured.release));
      return pid;
    },
    {
      timeoutMs: 10000,
      what: 'openshift-router starting in its namespaces',
      signal,
      diagnose: () => logTail(labDir, 'router'),
    },
  );
  // Stopping the init ends the namespace: the kernel kills every HAProxy in it, and unshare exits.
  fs.writeFileSync(pidFile(labDir, 'router'), `${pid}\n`);
  return recordProcess(labDir, 'router', pid, { match: 'openshift-router', role: 'router' });
}

/** Waits for the router's readiness (its HAProxy running, its routes synced). */
async function waitReady(lab, record) {
  const url = `http://127.0.0.1:${lab.ports.stats}/healthz/ready`;
  await waitUntil(
    async () => {
      assertRunning(lab.labDir, record);
      return (await request(url, { timeoutMs: 1000 })).status === 200;
    },
    {
      timeoutMs: 60000,
      what: `openshift-router ready (${url})`,
      signal: lab.signal,
      diagnose: () => logTail(lab.labDir, 'router'),
    },
  );
}

/**
 * The control plane, the overlay, the endpoints and the router; resolves once every Route is
 * admitted and answers 200 through the router.
 */
async function start(lab, configured) {
  // Before the control plane (see launchMonitoring); with pods it scrapes the node's kubelet, so
  // it starts once the node runs.
  const early = lab.opts.pods ? null : launchMonitoring(lab, { stats: configured.stats });
  lab.kube = await kube.startCluster(lab);
  const monitoring = early || launchMonitoring(lab, { stats: configured.stats });
  const record = lab.opts.pods
    ? await startRouterPod(lab, configured, routerEnv(lab, configured))
    : await startRouterProcess(lab, configured);
  lab.step(
    `Router (openshift-router, ${lab.opts.threads} thread(s), maxconn ${lab.maxconn}, reload interval ${lab.opts.reloadIntervalS} s)`,
  );
  await waitReady(lab, record);
  lab.admission = await kube.waitAdmittedAndServing(lab);
  if (lab.scaleRoutes.length) lab.scaleAdmission = await kube.waitScaleRoutesServing(lab);
  lab.step(`Prometheus scraping the router's /metrics and the process exporter every ${SCRAPE_INTERVAL_S} s`);
  lab.monitoring = await monitoringReady(lab, monitoring);
}

/** lab.json's `router` for the real router. */
function describe(lab, configured, { pid, alpn }) {
  const { opts, ports, haproxy } = lab;
  const balance = routeBalances(lab.routes);
  return {
    kind: KIND.kind,
    pid,
    httpPort: ports.http,
    httpsPort: ports.https,
    statsPort: ports.stats,
    metricsUrl: `http://127.0.0.1:${ports.stats}/metrics`,
    healthUrl: `http://127.0.0.1:${ports.stats}/healthz`,
    stats: configured.stats,
    threads: opts.threads,
    maxconn: lab.maxconn,
    maxconnRequested: opts.maxconn,
    key: opts.routerKey,
    // The Route manifests' annotations decide, as on a cluster (no LAB_PASSTHROUGH_BALANCE here).
    balance,
    passthroughBalance: balance.passthrough?.balance ?? null,
    haproxy: haproxySummary(haproxy),
    openshiftRouter: {
      release: configured.release,
      ...ROUTER_PINS[configured.release],
      binary: routerBin(configured.release),
    },
    reloadIntervalS: opts.reloadIntervalS,
    hardStopAfterS: opts.hardStopAfterS,
    configManager: opts.configManager,
    idleClose: opts.idleClose,
    alpn: { policy: configured.alpn, negotiated: alpn },
    tls: configured.tls,
    http2: opts.http2,
    openshiftRelease: opts.openshiftRelease,
    node: lab.node ?? null,
    cpus: lab.cpus.router,
    workDir: configured.workDir,
    runtimeSocket: routerPaths(lab.labDir).runtimeSocket,
    log: logFile(lab.labDir, 'router'),
    kube: { server: lab.kube.server, kubeconfig: lab.kube.kubeconfig, overlay: opts.overlay },
    network: lab.network ?? null,
    admission: lab.admission,
    monitoring: lab.monitoring,
  };
}

/** The overlay's Routes (LAB_OVERLAY): kubectl applies overlays/<name>, whose Routes the router admits. */
function selectRoutes(routes, opts) {
  return opts.overlay === 'all' ? routes : routes.filter((r) => r.termination === opts.overlay);
}

/** A reload through the API: endpoints withdrawn or published, or the Routes touched. */
async function reload(state, { overrides = {}, handover = true, exclude, restarted, signal, log } = {}) {
  if (Object.keys(overrides).length) throw new Error(KIND.unsupported['reload-overrides']);
  if (!handover) throw new Error(KIND.unsupported['reload-without-handover']);
  return reloadThroughApi(state, { exclude, restarted, signal, log });
}

/** lab:up's and lab:status's lines: the router, its API server, pod network and monitoring. */
function statusLines(router) {
  const { openshiftRouter: os, kube: api, network, monitoring } = router;
  return [
    `Router: openshift-router ${os.branch} (${os.commit.slice(0, 12)}) pid ${router.pid}, ${sizingLine(router)}, ` +
      `reload interval ${router.reloadIntervalS} s` +
      (router.hardStopAfterS ? `, hard-stop-after ${router.hardStopAfterS} s` : '') +
      (router.configManager ? ', dynamic configuration manager on' : '') +
      (router.idleClose === 'deferred'
        ? ', idle connections closed after their next response at a reload'
        : ''),
    `  metrics  ${router.metricsUrl} (user ${router.stats.username}, password in lab.json)`,
    ...(tlsLine(router) ? [tlsLine(router)] : []),
    `  API      ${api.server} (overlays/${api.overlay} applied)`,
    `  kubectl  kubectl --kubeconfig ${api.kubeconfig} get routes`,
    router.node
      ? `  node     ${router.node.addresses.nodeName} (kubelet, containerd): pods in ${router.node.addresses.podCidr} ` +
        `on bridge ${router.node.addresses.bridge}; kubectl get pods -n router-lab`
      : `  pods     network namespace ${network.netns}, ${network.podAddress}`,
    ...(router.node?.clusterK6 ? [`  k6-operator ${router.node.clusterK6}`] : []),
    ...(monitoring
      ? [
          `  Prometheus ${monitoring.url} (every ${monitoring.scrapeIntervalSeconds} s: the router's /metrics, each process's CPU)`,
          `  as a cluster: ${monitoring.clusterCommand}`,
        ]
      : []),
  ];
}

module.exports = {
  ...KIND,
  selectRoutes,
  preflight: openshiftPreflight,
  configure,
  start,
  describe,
  reload,
  // A pod leaving reaches the router through its endpoints, as on a cluster.
  endpointsViaReload: true,
  admission: routeAdmissions,
  measureAdmission,
  // openshift-router and every HAProxy it starts, across reloads, as its pod's cgroup counts them.
  processes: (router) => ({ tree: router.pid }),
  // openshift-router configures HAProxy from inside its pod: processes() counts it.
  controlPlane: () => null,
  counters: (state) => haproxyCounters(routerPaths(state.labDir).runtimeSocket),
  servers: (state) => haproxyServers(routerPaths(state.labDir).runtimeSocket, state.routes),
  statusLines,
  describeForResults: (router) => ({
    openshiftRouter: `${router.openshiftRouter.branch} (${router.openshiftRouter.commit.slice(0, 12)})`,
  }),
};
