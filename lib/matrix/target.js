'use strict';
// Where a matrix run sends traffic, and what it watches there: the running lab (from lab.json) or
// a cluster named by options; the TLS trust that goes with it; the lab processes whose CPU is
// sampled while each cell runs.
const fs = require('node:fs');
const { labDir: defaultLabDir } = require('../core/paths');
const { isAlive } = require('../core/processes');
const { readLabState } = require('../lab/common/state');
const { DEFAULT_NAMESPACE, urlVariable, TERMINATIONS } = require('../../k6/lib/cells');
const { URL_VARS, resolveTargets } = require('../../k6/lib/targets');
const { tlsBlock } = require('../results-model/document');
const { CONTROL_PLANE } = require('../results-model/cell');
const { defaultKubeconfig, readKubeconfig } = require('../lab/kube/kubeconfig');
const { backendOf } = require('../lab/routers');
const { serviceSessionsReader } = require('../lab/common/service-sessions');
const { readCluster } = require('./cluster-api');

/** Where to send traffic: the running lab (from lab.json) or a cluster named by options. */
function resolveTarget(opts, env = process.env) {
  if (opts.target === 'lab') {
    const labDir = defaultLabDir(env);
    const lab = readLabState(labDir);
    if (!lab)
      throw new Error(
        `no lab is running in ${labDir}: start it with 'npm run lab:up' (or use 'npm run lab')`,
      );
    if (!isAlive(lab.router.pid)) {
      throw new Error(
        `the lab's router (pid ${lab.router.pid}) is not running: 'npm run lab:down', then 'npm run lab:up'`,
      );
    }
    const routes = Object.fromEntries(lab.routes.map((r) => [r.termination, { url: r.url, host: r.host }]));
    // A lab started with one overlay (LAB_OVERLAY) or without the SNI hop serves fewer Routes.
    const missingRoutes = TERMINATIONS.filter((t) => !routes[t]).map((termination) => ({
      termination,
      reason: `the running lab serves no ${termination} Route (see 'npm run lab:status')`,
    }));
    const free = lab.placement && lab.placement.free;
    return {
      target: {
        mode: 'lab',
        appsDomain: lab.appsDomain,
        namespace: lab.namespace,
        httpPort: lab.router.httpPort,
        httpsPort: lab.router.httpsPort,
        caFile: opts.caFile || lab.certs.labCA,
        routes,
        missingRoutes,
        // A reader of the router's own counters, read while each sample runs.
        counters: backendOf(lab.router).counters(lab),
        // The instances' TLS sessions: passthrough's evidence, its TLS ending at the service.
        serviceSessions: lab.instances?.length ? serviceSessionsReader(lab.instances) : null,
        // With LAB_CPUS placement, k6 runs on the cores left free for it.
        k6Cpus: free && free.length ? free.join(',') : null,
        // Whether the router offers h2 over ALPN (LAB_ROUTER_HTTP2).
        http2: Boolean(lab.options?.http2),
      },
      lab,
    };
  }
  // The k6 scripts' own resolution (k6/lib/targets.js), so the runner and k6 agree on every URL.
  const appsDomain = opts.appsDomain || null;
  const namespace = opts.namespace || DEFAULT_NAMESPACE;
  const urls = opts.urls || {};
  const k6Env = { TARGET: 'cluster', NAMESPACE: namespace };
  if (appsDomain) k6Env.APPS_DOMAIN = appsDomain;
  for (const [termination, url] of Object.entries(urls)) k6Env[URL_VARS[termination]] = url;
  const resolved = resolveTargets(k6Env);
  const routes = {};
  for (const [termination, route] of Object.entries(resolved.routes)) {
    routes[termination] = { url: route.url, host: route.host };
  }
  return {
    target: {
      mode: 'cluster',
      appsDomain,
      namespace,
      urls,
      routes,
      caFile: opts.caFile || opts.sslCertFile || null,
      insecure: Boolean(opts.insecure),
      // Every route host connects here instead of through DNS (k6's `hosts`), where given.
      routerAddress: opts.routerAddress || null,
      counters: null,
      serviceSessions: null,
      k6Cpus: null,
    },
    lab: null,
  };
}

/**
 * A cluster target completed from its API where no --apps-domain or URL names the Routes: their
 * URLs, the ones missing (each cell of theirs is skipped with the reason), the API it read and
 * the router's size (its IngressController, or --router-threads and --router-replicas).
 */
async function withClusterApi(target, opts, env = process.env) {
  if (target.mode !== 'cluster') return target;
  const sized = (router = {}) => routerSize(router, opts);
  if (target.appsDomain || Object.keys(target.urls).length) return { ...target, clusterRouter: sized() };
  const kubeconfig = opts.kubeconfig || defaultKubeconfig(env);
  if (!fs.existsSync(kubeconfig)) {
    throw new Error(
      `no --apps-domain, no route URL, and no kubeconfig at ${kubeconfig}: 'oc login', pass --kubeconfig FILE, ` +
        'or name the routes with --apps-domain',
    );
  }
  const ports = { http: opts.httpPort, https: opts.httpsPort };
  const cluster = await readCluster({ kubeconfig, namespace: target.namespace, ports });
  const routes = Object.fromEntries(
    Object.entries(cluster.routes).map(([t, r]) => [t, { url: r.url, host: r.host }]),
  );
  const urls = Object.fromEntries(Object.entries(routes).map(([t, r]) => [t, r.url]));
  return {
    ...target,
    urls,
    routes,
    missingRoutes: cluster.missing,
    api: { ...cluster.api, kubeconfig },
    kubeToken: readKubeconfig(kubeconfig).token || null,
    clusterRouter: sized(cluster.router),
  };
}

/**
 * The cluster router's size: { ingressController, threads, replicas, source }, the options
 * winning over the IngressController; threads and replicas null where neither says.
 */
function routerSize(router, opts) {
  const given = opts.routerThreads || opts.routerReplicas;
  const source = given
    ? '--router-threads / --router-replicas'
    : router.source || (router.error ? `not read: ${router.error}` : 'not known: pass --router-threads');
  return {
    ingressController: router.ingressController || null,
    threads: opts.routerThreads ?? router.threads ?? null,
    replicas: opts.routerReplicas ?? router.replicas ?? null,
    source,
  };
}

/** The results' tls block for a target: its trust store, and --insecure. */
function describeTls(target) {
  const trust = target.caFile ? `SSL_CERT_FILE=${target.caFile}` : 'the system trust store';
  return tlsBlock({ trust, insecure: Boolean(target.insecure) });
}

/**
 * The planned cells a cluster's API has no Route for, as skipped cells with the reason; the rest
 * must each have a URL, or this throws naming the variable that would give it.
 */
function requireRoutes(target, cells) {
  const missing = new Map((target.missingRoutes || []).map((m) => [m.termination, m.reason]));
  const skipped = cells.filter((c) => missing.has(c.termination));
  for (const cell of cells.filter((c) => !missing.has(c.termination))) {
    if (!target.routes[cell.termination]) {
      throw new Error(
        `no URL for the ${cell.termination} route: pass --apps-domain or ${urlVariable(cell.termination)}`,
      );
    }
  }
  return {
    cells: cells.filter((c) => !missing.has(c.termination)),
    skipped: skipped.map((c) => ({ name: c.name, reason: missing.get(c.termination) })),
  };
}

/**
 * The lab's processes to sample during each cell: { watch: { router: pid, 'control-plane': pid
 * (the Gateway's istiod), 'data-service-1': pid, 'redis-1': pid, … }, instanceNames, redisNames };
 * nothing for a cluster.
 */
function watchedProcesses(lab) {
  const watch = {};
  const instanceNames = [];
  const redisNames = [];
  if (lab) {
    // As the router's backend counts it (the real router: openshift-router and every HAProxy it
    // starts, across reloads, as its pod's cgroup does).
    watch.router = backendOf(lab.router).processes(lab.router);
    const controlPlane = backendOf(lab.router).controlPlane(lab.router);
    if (controlPlane) watch[CONTROL_PLANE] = controlPlane;
    for (const inst of lab.instances) {
      watch[inst.name] = inst.pid;
      instanceNames.push(inst.name);
    }
    (lab.redis.pids || []).forEach((pid, i) => {
      watch[`redis-${i + 1}`] = pid;
      redisNames.push(`redis-${i + 1}`);
    });
  }
  return { watch, instanceNames, redisNames };
}

module.exports = { resolveTarget, withClusterApi, requireRoutes, describeTls, watchedProcesses };
