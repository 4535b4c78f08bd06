'use strict';
// LAB_ROUTER=openshift's router: openshift-router itself, admitting the Routes kubectl applied, in
// private mount and PID namespaces (its template and reload script hard-code /var/lib/haproxy and
// /usr/sbin/haproxy, and the script signals every process named haproxy).
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { routerBin, imageFiles, ROUTER_PINS } = require('../../setup/openshift-router-build');
const { startMonitoring, SCRAPE_INTERVAL_S } = require('./monitoring');
const { intermediateProfile, supportedGroups } = require('../haproxy/tls-profile');
const { alpnPolicy, routerPaths, routeBalances } = require('../haproxy/router-config');
const { APPS_DOMAIN } = require('../shared/routes');
const { launch, assertRunning, waitUntil, logTail } = require('../shared/stack');
const { pidFile, recordProcess, logFile } = require('../shared/pids');
const { haproxySummary } = require('../haproxy/binary');
const { readProcFile, readStat, childrenOf } = require('../../core/proc');
const { request } = require('../shared/client');
const { createPodNetwork } = require('./pod-network');
const kube = require('./cluster');

/** The image's /var/lib/haproxy, copied into the lab: the template binds loopback only. */
const workDir = (labDir) => path.join(labDir, 'openshift-router');

/** The template with its `bind :PORT` lines on 127.0.0.1 (the lab's one deviation from it). */
function loopbackTemplate(text) {
  let count = 0;
  const out = text.replace(/^(\s*bind ):(?=[{0-9])/gm, (match, head) => {
    count++;
    return `${head}127.0.0.1:`;
  });
  // stats, public and public_ssl in the v4 branches: anything else means the template changed.
  if (count < 3) throw new Error(`the router's template has ${count} 'bind :PORT' lines, not the 3 expected`);
  return out;
}

/** Lays out the image's /var/lib/haproxy (Dockerfile.ocp's folders and empty map files). */
function prepareWorkDir(labDir, release) {
  const dir = workDir(labDir);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(imageFiles(release), dir, { recursive: true });
  for (const sub of [
    'router/certs',
    'router/cacerts',
    'router/allowlists',
    'conf/.tmp',
    'run',
    'bin',
    'log',
    'mtls',
  ]) {
    fs.mkdirSync(path.join(dir, sub), { recursive: true });
  }
  for (const map of [
    'os_http_be',
    'os_edge_reencrypt_be',
    'os_tcp_be',
    'os_sni_passthrough',
    'os_route_http_redirect',
    'cert_config',
    'os_wildcard_domain',
  ]) {
    fs.writeFileSync(path.join(dir, 'conf', `${map}.map`), '');
  }
  const template = path.join(dir, 'conf', 'haproxy-config.template');
  fs.writeFileSync(template, loopbackTemplate(fs.readFileSync(template, 'utf8')));
  fs.mkdirSync(routerPaths(labDir).runDir, { recursive: true });
  return dir;
}

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
    // Prometheus scrapes every second (lib/lab/monitoring.js), so the router reads as often.
    ROUTER_METRICS_HAPROXY_BASE_SCRAPE_INTERVAL: `${SCRAPE_INTERVAL_S}s`,
    STATS_USERNAME: stats.username,
    STATS_PASSWORD: stats.password,
    ROUTER_THREADS: String(opts.threads),
    ROUTER_MAX_CONNECTIONS: String(lab.maxconn),
    ROUTER_SUBDOMAIN: `\${name}-\${namespace}.${APPS_DOMAIN}`,
    ROUTER_DOMAIN: APPS_DOMAIN,
    // The ingress operator names the router after its IngressController (Route status routerName).
    ROUTER_SERVICE_NAME: 'default',
    ROUTER_SERVICE_NAMESPACE: 'openshift-ingress',
    ROUTER_CANONICAL_HOSTNAME: `router-default.${APPS_DOMAIN}`,
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
    // The 45 s default waits for a cloud load balancer to drop the router; the lab has none.
    ROUTER_GRACEFUL_SHUTDOWN_DELAY: '1s',
  };
}

/**
 * The pod network, the working directory and the router's environment. The instances move to the
 * pod network's address: the API server refuses loopback endpoints.
 */
async function configure(lab) {
  const { labDir, opts, certs, haproxy } = lab;
  const release = opts.openshiftRelease;
  prepareWorkDir(labDir, release);
  const network = await createPodNetwork(labDir);
  lab.network = { host: network.podAddress, netns: network.netns, ...network };
  lab.instances = lab.instances.map((i) => ({ ...i, host: network.podAddress }));
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
      `${haproxy.version} (${haproxy.openssl}); pod network ${network.netns} at ${network.podAddress}`,
  );
  return { release, tls, stats, alpn: alpnPolicy(opts.http2), workDir: workDir(labDir) };
}

/** The command that sets up the router's namespaces, mounts its files and runs it as their init. */
function namespacedCommand(labDir, { haproxy, release }) {
  const script =
    'set -e; mount --bind "$1" /var/lib/haproxy; mount --bind "$2" /var/lib/haproxy/run; ' +
    'mount --bind "$3" /usr/sbin/haproxy; cd /var/lib/haproxy/conf; exec "$4" --v=2';
  return {
    file: 'unshare',
    args: [
      '--mount',
      '--pid',
      '--fork',
      '--mount-proc',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      script,
      'sh',
      workDir(labDir),
      routerPaths(labDir).runDir,
      haproxy,
      routerBin(release),
    ],
  };
}

/** The pid (as the host sees it) of unshare's child once it runs openshift-router, or null. */
function routerInit(unsharePid, binary) {
  const init = childrenOf(unsharePid).find((pid) => (readProcFile(pid, 'cmdline') || '').startsWith(binary));
  return init || null;
}

/**
 * The HAProxy process serving now under openshift-router (host pid `routerPid`): its newest
 * haproxy child; older ones are finishing their connections after a reload. Null when none runs.
 */
function servingHaproxy(routerPid) {
  const haproxies = childrenOf(routerPid)
    .filter((pid) => /^haproxy\n?$/.test(readProcFile(pid, 'comm') || ''))
    .filter((pid) => readStat(pid) && readStat(pid).state !== 'Z');
  const started = (pid) => readStat(pid)?.startTime ?? 0;
  return haproxies.sort((a, b) => started(b) - started(a))[0] ?? null;
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
  lab.kube = await kube.startCluster(lab);
  const record = await startRouterProcess(lab, configured);
  lab.step(
    `Router (openshift-router, ${lab.opts.threads} thread(s), maxconn ${lab.maxconn}, reload interval ${lab.opts.reloadIntervalS} s)`,
  );
  await waitReady(lab, record);
  lab.admission = await kube.waitAdmittedAndServing(lab);
  if (lab.scaleRoutes.length) lab.scaleAdmission = await kube.waitScaleRoutesServing(lab);
  lab.step(`Prometheus scraping the router's /metrics and the process exporter every ${SCRAPE_INTERVAL_S} s`);
  lab.monitoring = await startMonitoring(lab, { stats: configured.stats });
}

/** lab.json's `router` for the real router. */
function describe(lab, configured, { pid, alpn }) {
  const { opts, ports, haproxy } = lab;
  const balance = routeBalances(lab.routes);
  return {
    kind: 'openshift',
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
    alpn: { policy: configured.alpn, negotiated: alpn },
    tls: configured.tls,
    http2: opts.http2,
    openshiftRelease: opts.openshiftRelease,
    cpus: lab.cpus.router,
    workDir: configured.workDir,
    runtimeSocket: routerPaths(lab.labDir).runtimeSocket,
    log: logFile(lab.labDir, 'router'),
    kube: { server: lab.kube.server, kubeconfig: lab.kube.kubeconfig, overlay: opts.overlay },
    network: lab.network,
    admission: lab.admission,
    monitoring: lab.monitoring,
  };
}

module.exports = {
  configure,
  start,
  describe,
  loopbackTemplate,
  namespacedCommand,
  routerInit,
  servingHaproxy,
};
