'use strict';
// The local lab's programmatic API: up, down, status. The CLIs (up.js, down.js, status.js) and
// the matrix runner use these; options come from LAB_* knobs in `env` (default process.env).
const fs = require('node:fs');
const path = require('node:path');
const { allocatePorts, wantedPorts } = require('./allocate');
const { resolveLabOptions, OPENSHIFT_DEFAULTS } = require('./options');
const { describePlacement, tasksetList } = require('./placement');
const { labRoutes, APPS_DOMAIN, NAMESPACE } = require('./routes');
const { preflight } = require('./preflight');
const { createLabCerts } = require('./lab-certs');
const { renderRouterConfig, writeRouterConfig, checkRouterConfig, routerPaths } = require('./router-config');
const { checkAlpn } = require('./alpn');
const { startRedis, startServices, startRouter, waitUntil } = require('./stack');
const { listRecords, processState, stopRecorded, logFile } = require('./pids');
const { readLabState, writeLabState, removeLabState } = require('./state');
const { probeRoute, probeInstance, backendServers } = require('./health');
const { wrap } = require('./format');
const { rollout } = require('./rolling-restart');
const { reload, forgetDrainedRouters } = require('./reload');

/** Order in which lab:down stops things: traffic first, then the services, then their data. */
const STOP_ORDER = ['router', 'service', 'redis'];
// The router is gone by the time the services stop: SIGINT tells them no router can still be
// sending traffic, so they skip their drain delay (data-service/src/shutdown.js).
const STOP_SIGNAL = { service: 'SIGINT' };

const noop = () => {};

/** Knobs that define a lab, to tell whether a running lab matches what was asked now. */
function fingerprint(opts) {
  return {
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

/** Stops every recorded process of the lab in labDir, router first. */
async function stopAll(labDir, log = noop, { timeoutMs = 15000 } = {}) {
  const records = listRecords(labDir);
  const roleOf = (r) => r.role || r.name.replace(/-\d+$/, '').replace('data-service', 'service');
  const rank = (r) => {
    const i = STOP_ORDER.indexOf(roleOf(r));
    return i === -1 ? STOP_ORDER.length : i;
  };
  const stopped = [];
  for (let level = 0; level <= STOP_ORDER.length; level++) {
    const batch = records.filter((r) => rank(r) === level);
    const results = await Promise.all(
      batch.map((r) => stopRecorded(labDir, r, { timeoutMs, signal: STOP_SIGNAL[roleOf(r)] })),
    );
    batch.forEach((r, i) => {
      stopped.push({ name: r.name, pid: r.pid, result: results[i] });
      const how = {
        stopped: 'stopped',
        killed: 'killed (did not stop in time)',
        gone: 'had already exited',
        'not-running': 'had already exited',
        foreign: 'left alone: its pid now belongs to another program',
      }[results[i]];
      log(`  ${r.name.padEnd(16)} pid ${String(r.pid).padEnd(8)} ${how}`);
    });
  }
  return stopped;
}

/** Is every process of a recorded lab still running? Returns the names that are not. */
function deadProcesses(labDir) {
  forgetDrainedRouters(labDir);
  return listRecords(labDir)
    .filter((r) => processState(r) !== 'running')
    .map((r) => r.name);
}

/**
 * Brings the lab up, or reports the running one (idempotent). Options: env (LAB_* knobs, default
 * process.env), log (progress lines, default console.log), signal (AbortSignal: stop what was
 * started and throw). Resolves with the lab state (lab.json), plus alreadyRunning when it was.
 */
async function up({ env = process.env, log = console.log, signal } = {}) {
  const opts = resolveLabOptions(env);
  const { labDir } = opts;

  const existing = readLabState(labDir);
  if (existing) {
    const dead = deadProcesses(labDir);
    if (dead.length) {
      throw new Error(
        `the lab in ${labDir} is only partly running (${dead.join(', ')} stopped): ` +
          `run 'npm run lab:down', then 'npm run lab:up'`,
      );
    }
    const want = fingerprint(opts);
    const differs = JSON.stringify(existing.options) !== JSON.stringify(want);
    log(`The lab is already running (started ${existing.startedAt}); nothing to do.`);
    if (differs) {
      log(
        `Note: it runs with ${JSON.stringify(existing.options)}, not the ${JSON.stringify(want)} ` +
          `asked for now. Run 'npm run lab:down' first to apply new settings.`,
      );
    }
    return { ...existing, alreadyRunning: true };
  }
  if (listRecords(labDir).length) {
    log(`Found processes of an earlier, unfinished lab:up in ${labDir}; stopping them first:`);
    await stopAll(labDir, log);
  }

  const step = (text) => log(`• ${text}`);
  const allocation = await allocatePorts(opts);
  const { ports, instances, redisPorts } = allocation;
  const { runDir } = routerPaths(labDir);

  step('Preflight checks');
  const checks = await preflight(opts, { ports: wantedPorts(allocation, opts.redisMode), runDir });
  for (const note of checks.notes) log(wrap(note, { first: '  note:' }));
  for (const warning of checks.warnings) log(wrap(warning, { first: '  warning:' }));
  if (checks.errors.length) {
    const err = new Error(`the lab cannot start:\n${checks.errors.map((e) => `  - ${e}`).join('\n')}`);
    err.preflight = checks;
    throw err;
  }
  const maxconn = checks.maxconn;

  for (const dir of ['logs', 'pids']) fs.mkdirSync(path.join(labDir, dir), { recursive: true });
  const placement = describePlacement(opts.placement);
  // taskset core lists per role ("0,1"), null when the role is not pinned.
  const cpus = {
    router: tasksetList(placement.router),
    service: tasksetList(placement.service),
    redis: tasksetList(placement.redis),
  };
  try {
    signal?.throwIfAborted();
    step(`Certificates in ${path.join(labDir, 'certs')}: lab CA, *.${APPS_DOMAIN}, service CA`);
    const routes = labRoutes({ httpPort: ports.http, httpsPort: ports.https });
    // h2 needs a route certificate on OpenShift: with HTTP/2 on, edge and re-encrypt get their own.
    const routeHosts = opts.http2
      ? routes.filter((r) => ['edge', 'reencrypt'].includes(r.termination)).map((r) => r.host)
      : [];
    const certs = createLabCerts(labDir, { routerKey: opts.routerKey, routeHosts });
    const haproxy = checks.haproxy;
    const router = {
      httpPort: ports.http,
      httpsPort: ports.https,
      statsPort: ports.stats,
      threads: opts.threads,
      maxconn,
      passthroughBalance: opts.passthroughBalance,
      http2: opts.http2,
      openshiftRelease: opts.openshiftRelease,
      checkIntervalMs: opts.checkIntervalMs,
    };
    const rendered = renderRouterConfig({ labDir, router, routes, instances, certs, haproxy });
    const config = writeRouterConfig(labDir, rendered);
    checkRouterConfig(config, haproxy.path);
    step(
      `Router configuration ${config} (haproxy -c: valid) for HAProxy ${haproxy.version} (${haproxy.source}, ` +
        `${haproxy.openssl}), OpenShift ${rendered.tls.openshiftRelease}'s TLS profile, ALPN ${rendered.alpn}`,
    );
    if (rendered.tls.groupsMissing.length) {
      log(
        wrap(
          `OpenShift ${rendered.tls.openshiftRelease} asks for the groups ${rendered.tls.groupsMissing.join(', ')} ` +
            `too, which ${haproxy.openssl} lacks: the router offers ${rendered.tls.groups.join(', ') || 'its defaults'}`,
          { first: '  note:' },
        ),
      );
    }

    step(
      `Redis ${opts.redisMode} on port${redisPorts.length > 1 ? 's' : ''} ${redisPorts.join(', ')}` +
        (opts.redisMode === 'cluster' ? ' (3 primaries + 3 replicas)' : ''),
    );
    await startRedis(labDir, {
      mode: opts.redisMode,
      ports: redisPorts,
      cpus: cpus.redis,
      fsync: opts.redisFsync,
      fresh: true,
      signal,
    });

    step(
      `${instances.length} data-service instance(s): ` +
        instances.map((i) => `${i.name} (:${i.port} http, :${i.tlsPort} https)`).join(', '),
    );
    await startServices(labDir, {
      instances,
      redis: { mode: opts.redisMode, ports: redisPorts, waitReplicas: opts.redisWaitReplicas },
      certs,
      logLevel: opts.logLevel,
      drainDelayMs: opts.drainDelayMs,
      cpus: cpus.service,
      signal,
    });

    step(
      `Router (HAProxy, ${opts.threads} thread(s), maxconn ${maxconn}) on :${ports.http} and :${ports.https}`,
    );
    await startRouter(labDir, { config, ports, cpus: cpus.router, signal, haproxy: haproxy.path });

    step('Waiting until every route answers through the router and every server is UP');
    await waitUntil(
      async () => {
        const servers = await backendServers(ports.stats, routes);
        if (servers.length !== routes.length * instances.length) return false;
        if (!servers.every((s) => s.status === 'UP')) return false;
        const probes = await Promise.all(routes.map((r) => probeRoute(r, { labCA: certs.labCA })));
        return probes.every((p) => p.ok);
      },
      { timeoutMs: 30000, what: 'every route answering 200 with every server UP', signal, intervalMs: 250 },
    );
    step(`Checking the ALPN the edge route negotiates (asked: ${rendered.alpn})`);
    const alpn = await checkAlpn({ port: ports.https, routes, labCA: certs.labCA, policy: rendered.alpn });

    const records = Object.fromEntries(listRecords(labDir).map((r) => [r.name, r]));
    const state = {
      labDir,
      startedAt: new Date().toISOString(),
      appsDomain: APPS_DOMAIN,
      namespace: NAMESPACE,
      router: {
        pid: records.router.pid,
        httpPort: ports.http,
        httpsPort: ports.https,
        statsPort: ports.stats,
        statsUrl: `http://127.0.0.1:${ports.stats}/`,
        metricsUrl: rendered.config.includes('prometheus-exporter')
          ? `http://127.0.0.1:${ports.stats}/metrics`
          : null,
        threads: opts.threads,
        maxconn,
        maxconnRequested: opts.maxconn,
        passthroughBalance: rendered.balance.passthrough.balance,
        balance: rendered.balance,
        key: opts.routerKey,
        haproxy: {
          path: haproxy.path,
          source: haproxy.source,
          version: haproxy.version,
          build: haproxy.build,
          openssl: haproxy.openssl,
        },
        alpn: { policy: rendered.alpn, negotiated: alpn },
        tls: rendered.tls,
        // What a reload renders again (lib/lab/reload.js), as lab:up was asked.
        http2: opts.http2,
        openshiftRelease: opts.openshiftRelease,
        checkIntervalMs: opts.checkIntervalMs,
        cpus: cpus.router,
        config,
        log: logFile(labDir, 'router'),
      },
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
      },
      instances: instances.map((i) => ({
        name: i.name,
        pid: records[i.name].pid,
        port: i.port,
        tlsPort: i.tlsPort,
        cpus: cpus.service,
        log: logFile(labDir, i.name),
      })),
      redis: {
        mode: opts.redisMode,
        fsync: opts.redisFsync,
        waitReplicas: opts.redisWaitReplicas,
        ports: redisPorts,
        pids: redisPorts.map((_, i) => records[`redis-${i + 1}`].pid),
        cpus: cpus.redis,
      },
      placement,
      drainDelayMs: opts.drainDelayMs,
      logLevel: opts.logLevel,
      options: fingerprint(opts),
      openshiftDefaults: OPENSHIFT_DEFAULTS,
    };
    writeLabState(labDir, state);
    return state;
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

/** Stops exactly what lab:up started (by pid file and record), even if some already died. */
async function down({ env = process.env, log = console.log } = {}) {
  const { labDir, drainDelayMs } = resolveLabOptions(env);
  const state = readLabState(labDir);
  // A draining instance keeps serving for its drain delay before it exits: wait that long.
  const stopped = await stopAll(labDir, log, {
    timeoutMs: (state ? state.drainDelayMs : drainDelayMs) + 10000,
  });
  removeLabState(labDir);
  fs.rmSync(routerPaths(labDir).runDir, { recursive: true, force: true });
  return { labDir, stopped };
}

/**
 * The lab's state with live health: { running, labDir, state, processes, routes, servers,
 * leftovers }. `running` is true when lab.json exists and every process and route is healthy.
 */
async function status({ env = process.env } = {}) {
  const { labDir } = resolveLabOptions(env);
  const state = readLabState(labDir);
  forgetDrainedRouters(labDir);
  const records = listRecords(labDir);
  if (!state) {
    return {
      running: false,
      labDir,
      state: null,
      leftovers: records
        .filter((r) => processState(r) === 'running')
        .map((r) => ({ name: r.name, pid: r.pid })),
    };
  }
  const instancesByName = Object.fromEntries(state.instances.map((i) => [i.name, i]));
  const processes = await Promise.all(
    records.map(async (r) => {
      const alive = processState(r);
      let health = alive === 'running' ? 'running' : alive === 'foreign' ? 'gone (pid reused)' : 'gone';
      if (alive === 'running' && instancesByName[r.name])
        health = await probeInstance(instancesByName[r.name]);
      const cpus =
        { router: state.router.cpus, redis: state.redis.cpus }[r.role] ??
        (instancesByName[r.name] || {}).cpus;
      return { name: r.name, role: r.role, pid: r.pid, health, cpus: cpus || null };
    }),
  );
  const routes = await Promise.all(
    state.routes.map(async (route) => ({
      ...route,
      probe: await probeRoute(route, { labCA: state.certs.labCA }),
    })),
  );
  let servers;
  try {
    servers = await backendServers(state.router.statsPort, state.routes);
  } catch (err) {
    servers = [{ backend: '-', server: '-', status: `stats unavailable: ${err.message}` }];
  }
  const running =
    processes.every((p) => p.health === 'running' || p.health === 'ready') && routes.every((r) => r.probe.ok);
  return { running, labDir, state, processes, routes, servers, leftovers: [] };
}

module.exports = { up, down, status, rollout, reload, readLabState, resolveLabOptions };
