'use strict';
// Where a matrix run sends traffic, and what it watches there: the running lab (from lab.json) or
// a cluster named by options; the TLS trust that goes with it; the lab processes whose CPU is
// sampled while each cell runs.
const { labDir: defaultLabDir } = require('../core/paths');
const { isAlive } = require('../core/processes');
const { readLabState } = require('../lab/state');
const { routerPaths } = require('../lab/router-config');
const { DEFAULT_NAMESPACE, urlVariable } = require('../../k6/lib/cells');
const { URL_VARS, resolveTargets } = require('../../k6/lib/targets');
const { tlsBlock } = require('../results-model/document');

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
        // The router's runtime API: its own counters, read while each sample runs.
        runtimeSocket: routerPaths(labDir).runtimeSocket,
        // With LAB_CPUS placement, k6 runs on the cores left free for it.
        k6Cpus: free && free.length ? free.join(',') : null,
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
      runtimeSocket: null,
      k6Cpus: null,
    },
    lab: null,
  };
}

/** The results' tls block for a target: its trust store, and --insecure. */
function describeTls(target) {
  const trust = target.caFile ? `SSL_CERT_FILE=${target.caFile}` : 'the system trust store';
  return tlsBlock({ trust, insecure: Boolean(target.insecure) });
}

/** Throws, naming the missing variable, unless the target has a URL for every planned cell. */
function requireRoutes(target, cells) {
  for (const cell of cells) {
    if (!target.routes[cell.termination]) {
      throw new Error(
        `no URL for the ${cell.termination} route: pass --apps-domain or ${urlVariable(cell.termination)}`,
      );
    }
  }
}

/**
 * The lab's processes to sample during each cell: { watch: { router: pid, 'data-service-1': pid,
 * 'redis-1': pid, … }, instanceNames, redisNames }; nothing for a cluster.
 */
function watchedProcesses(lab) {
  const watch = {};
  const instanceNames = [];
  const redisNames = [];
  if (lab) {
    // The real router as its pod's cgroup counts it: openshift-router and every HAProxy it starts,
    // across reloads.
    watch.router = lab.router.kind === 'openshift' ? { tree: lab.router.pid } : lab.router.pid;
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

module.exports = { resolveTarget, requireRoutes, describeTls, watchedProcesses };
