'use strict';
// lab:up: preflight, certificates, Redis, the data-service instances and the router, checked from
// outside, then lab.json. Whatever a later step fails on (or Ctrl-C), everything started is stopped.
const fs = require('node:fs');
const path = require('node:path');
const { allocatePorts, wantedPorts } = require('./common/allocate');
const { resolveLabOptions, OPENSHIFT_DEFAULTS } = require('./common/options');
const { describePlacement, tasksetList } = require('./common/placement');
const { labRoutes, APPS_DOMAIN, NAMESPACE } = require('./common/routes');
const { preflight } = require('./common/preflight');
const { createLabCerts } = require('./common/lab-certs');
const { routerPaths } = require('./haproxy/router-config');
const { checkAlpn } = require('./haproxy/alpn');
const { startRedis, startServices } = require('./common/stack');
const { scaleRoutes, serviceHost, SUPPORTED_MAX_ROUTES } = require('./common/scale-routes');
const cells = require('../../k6/lib/cells');
const { listRecords, logFile } = require('./common/pids');
const { readLabState, writeLabState, removeLabState } = require('./common/state');
const { stopAll, deadProcesses } = require('./common/stop');
const { LOOPBACK } = require('./common/stack');
const { wrap } = require('../core/text');
const { routerBackend } = require('./routers');
const { routerKind } = require('./common/router-kinds');

/** Knobs that define a lab, to tell whether a running lab matches what was asked now. */
function fingerprint(opts) {
  return {
    router: opts.router,
    ...Object.fromEntries(routerKind(opts.router).fingerprintKnobs.map((knob) => [knob, opts[knob]])),
    routes: opts.routes,
    replicas: opts.replicas,
    redisMode: opts.redisMode,
    redisFsync: opts.redisFsync,
    redisWaitReplicas: opts.redisWaitReplicas,
    threads: opts.threads,
    haproxy: opts.haproxy,
    http2: opts.http2,
    openshiftRelease: opts.openshiftRelease,
    passthroughBalance: opts.passthroughBalance,
    routerKey: opts.routerKey,
    placement: describePlacement(opts.placement),
  };
}

/**
 * The running lab's state marked alreadyRunning, or null when none runs (after stopping what an
 * unfinished lab:up left). Throws when the recorded lab is only partly running.
 */
async function runningLab(opts, log) {
  const { labDir } = opts;
  const existing = readLabState(labDir);
  if (!existing) {
    if (listRecords(labDir).length) {
      log(`Found processes of an earlier, unfinished lab:up in ${labDir}; stopping them first:`);
      await stopAll(labDir, log);
    }
    return null;
  }
  const dead = deadProcesses(labDir);
  if (dead.length) {
    throw new Error(
      `the lab in ${labDir} is only partly running (${dead.join(', ')} stopped): ` +
        `run 'npm run lab:down', then 'npm run lab:up'`,
    );
  }
  const want = fingerprint(opts);
  log(`The lab is already running (started ${existing.startedAt}); nothing to do.`);
  if (JSON.stringify(existing.options) !== JSON.stringify(want)) {
    log(
      `Note: it runs with ${JSON.stringify(existing.options)}, not the ${JSON.stringify(want)} ` +
        `asked for now. Run 'npm run lab:down' first to apply new settings.`,
    );
  }
  return { ...existing, alreadyRunning: true };
}

/** Preflight's findings ({ haproxy, maxconn, ... }); its notes and warnings logged, its errors thrown. */
async function checkBeforeStart(opts, allocation, log) {
  const { runDir } = routerPaths(opts.labDir);
  const checks = await preflight(opts, {
    ports: wantedPorts(allocation, opts.redisMode),
    runDir,
    routerChecks: (haproxy) => routerBackend(opts.router).preflight(opts, haproxy),
  });
  for (const note of checks.notes) log(wrap(note, { first: '  note:' }));
  for (const warning of checks.warnings) log(wrap(warning, { first: '  warning:' }));
  if (checks.errors.length) {
    const err = new Error(`the lab cannot start:\n${checks.errors.map((e) => `  - ${e}`).join('\n')}`);
    err.preflight = checks;
    throw err;
  }
  return checks;
}

/** The lab CA, the default router certificate, the service CA and, with HTTP/2, route certificates. */
function certificates({ labDir, opts, routes, step }) {
  step(`Certificates in ${path.join(labDir, 'certs')}: lab CA, *.${APPS_DOMAIN}, service CA`);
  // h2 needs a route certificate on OpenShift: with HTTP/2 on, edge and re-encrypt get their own.
  const routeHosts = opts.http2
    ? routes.filter((r) => ['edge', 'reencrypt'].includes(r.termination)).map((r) => r.host)
    : [];
  // Re-encrypt verifies each further Service's name: one wildcard names them all, so the
  // certificate every TLS cell carries stays the size it is at 4 Routes, one name longer.
  const serviceHosts = opts.routes > 4 ? [serviceHost({ name: '*' })] : [];
  return createLabCerts(labDir, { routerKey: opts.routerKey, routeHosts, serviceHosts });
}

/** Redis, then the data-service instances, each waited for, on the lab's network. */
async function startBackends({
  labDir,
  opts,
  redisPorts,
  instances,
  certs,
  cpus,
  signal,
  step,
  network = LOOPBACK,
}) {
  const plural = redisPorts.length > 1 ? 's' : '';
  const shape = opts.redisMode === 'cluster' ? ' (3 primaries + 3 replicas)' : '';
  step(`Redis ${opts.redisMode} on port${plural} ${redisPorts.join(', ')}${shape}`);
  await startRedis(labDir, {
    mode: opts.redisMode,
    ports: redisPorts,
    cpus: cpus.redis,
    fsync: opts.redisFsync,
    fresh: true,
    signal,
    network,
  });
  step(
    `${instances.length} data-service instance(s): ` +
      instances.map((i) => `${i.name} (:${i.port} http, :${i.tlsPort} https)`).join(', '),
  );
  await startServices(labDir, {
    instances,
    redis: {
      mode: opts.redisMode,
      ports: redisPorts,
      waitReplicas: opts.redisWaitReplicas,
      host: network.host,
    },
    certs,
    logLevel: opts.logLevel,
    drainDelayMs: opts.drainDelayMs,
    cpus: cpus.service,
    signal,
    netns: network.netns,
  });
}

/** lab.json: what runs where, for the matrix, lab:status, reload and lab:down. */
function labState(lab, router) {
  const { labDir, opts, routes, certs, instances, redisPorts, cpus } = lab;
  const records = Object.fromEntries(listRecords(labDir).map((r) => [r.name, r]));
  return {
    labDir,
    startedAt: new Date().toISOString(),
    appsDomain: APPS_DOMAIN,
    namespace: NAMESPACE,
    router,
    routes: routes.map(({ name, termination, host, url, backend }) => ({
      name,
      termination,
      host,
      url,
      backend,
    })),
    certs: {
      labCA: certs.labCA,
      serviceCA: certs.serviceCA,
      defaultPem: certs.defaultPem,
      routeCerts: certs.routeCerts || {},
      dir: certs.dir,
      serviceCert: certs.serviceCert,
      serviceKey: certs.serviceKey,
      // Instances restarted later (lab:rollout, faults) must share the same keys.
      serviceTicketKeys: certs.serviceTicketKeys,
    },
    instances: instances.map((i) => ({
      name: i.name,
      pid: records[i.name]?.pid ?? i.pid,
      host: i.host || LOOPBACK.host,
      port: i.port,
      tlsPort: i.tlsPort,
      cpus: cpus.service,
      log: logFile(labDir, i.name),
    })),
    redis: {
      mode: opts.redisMode,
      fsync: opts.redisFsync,
      waitReplicas: opts.redisWaitReplicas,
      host: (lab.network || LOOPBACK).host,
      netns: (lab.network || LOOPBACK).netns,
      ports: redisPorts,
      pids: redisPorts.map((_, i) => records[`redis-${i + 1}`].pid),
      pods: Boolean(opts.pods),
      cpus: cpus.redis,
    },
    // LAB_ROUTES: the extra Routes, and how long the router took to admit and serve them.
    scaleRoutes: lab.scaleRoutes.length
      ? { count: lab.scaleRoutes.length, ...lab.scaleAdmission, routes: lab.scaleRoutes }
      : null,
    placement: lab.placement,
    drainDelayMs: opts.drainDelayMs,
    logLevel: opts.logLevel,
    options: fingerprint(opts),
    openshiftDefaults: OPENSHIFT_DEFAULTS,
  };
}

/** LAB_ROUTES's extra Routes with their URLs on the router's ports. */
function withUrls(routes, ports) {
  return routes.map((r) => ({
    ...r,
    url: cells.routeUrl(
      r.termination,
      r.host,
      cells.routeScheme(r.termination) === 'https' ? ports.https : ports.http,
    ),
  }));
}

/** Every step after preflight, in order; resolves with the state written to lab.json. */
async function startLab(base) {
  const ROUTER = routerBackend(base.opts.router);
  const all = labRoutes({ httpPort: base.ports.http, httpsPort: base.ports.https });
  const routes = ROUTER.selectRoutes(all, base.opts);
  const lab = {
    ...base,
    routes,
    scaleRoutes: withUrls(scaleRoutes(base.opts.routes, ROUTER.scaleTerminations), base.ports),
    certs: await certificates({ ...base, routes }),
  };
  const configured = await ROUTER.configure(lab);
  // LAB_PODS=yes: the backend starts them as pods, on its node.
  if (configured.backendsRunAs !== 'pods') await startBackends(lab);
  await ROUTER.start(lab, configured);
  lab.step(`Checking the ALPN the edge route negotiates (asked: ${configured.alpn})`);
  const alpn = await checkAlpn({
    port: lab.ports.https,
    routes,
    labCA: lab.certs.labCA,
    policy: configured.alpn,
  });
  const pid = listRecords(lab.labDir).find((r) => r.name === 'router').pid;
  const state = labState(lab, ROUTER.describe(lab, configured, { pid, alpn }));
  writeLabState(lab.labDir, state);
  return state;
}

/**
 * Brings the lab up, or reports the running one (idempotent). Options: env (LAB_* knobs, default
 * process.env), log (progress lines, default console.log), signal (AbortSignal: stop what was
 * started and throw). Resolves with the lab state (lab.json), plus alreadyRunning when it was.
 */
async function up({ env = process.env, log = console.log, signal } = {}) {
  const opts = resolveLabOptions(env);
  const { labDir } = opts;
  if (opts.routes > SUPPORTED_MAX_ROUTES) {
    log(
      `warning: LAB_ROUTES=${opts.routes} is past the ${SUPPORTED_MAX_ROUTES} Routes OpenShift supports per router; going on`,
    );
  }
  const running = await runningLab(opts, log);
  if (running) return running;

  const step = (text) => log(`• ${text}`);
  const allocation = await allocatePorts(opts);
  step('Preflight checks');
  const checks = await checkBeforeStart(opts, allocation, log);
  for (const dir of ['logs', 'pids']) fs.mkdirSync(path.join(labDir, dir), { recursive: true });
  const placement = describePlacement(opts.placement);
  // taskset core lists per role ("0,1"), null when the role is not pinned.
  const cpus = Object.fromEntries(
    ['router', 'service', 'redis'].map((role) => [role, tasksetList(placement[role])]),
  );
  const lab = { labDir, opts, ...allocation, placement, cpus, signal, log, step };
  try {
    signal?.throwIfAborted();
    return await startLab({ ...lab, haproxy: checks.haproxy, maxconn: checks.maxconn });
  } catch (err) {
    log(
      err.name === 'AbortError'
        ? 'Interrupted: stopping what was started'
        : 'Start-up failed: stopping what was started',
    );
    await stopAll(labDir, log, { timeoutMs: opts.drainDelayMs + 10000 });
    removeLabState(labDir);
    throw err;
  }
}

module.exports = { up };
