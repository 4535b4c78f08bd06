'use strict';
// LAB_ROUTER=template's router backend (the interface is lib/lab/routers.js): plain HAProxy on a
// configuration rendered the way the OpenShift router renders its own, reloaded as reload-haproxy
// does.
const {
  renderRouterConfig,
  writeRouterConfig,
  checkRouterConfig,
  routerPaths,
} = require('../haproxy/router-config');
const { startRouter, waitUntil } = require('../common/stack');
const { probeRoute, backendServers, haproxyServers, lastOfEachServes } = require('../common/health');
const { logFile } = require('../common/pids');
const { haproxySummary } = require('../haproxy/binary');
const { wrap } = require('../../core/text');
const { tlsLine, sizingLine } = require('../common/router-lines');
const { reload } = require('./reload');
const { labRoutes } = require('../common/routes');
const KIND = require('./kind');
const { haproxyCounters } = require('../haproxy/counters');

/**
 * Renders, writes and checks (haproxy -c) the configuration. `lab` is up's context (labDir, opts,
 * ports, routes, instances, certs, haproxy, maxconn, log, step). Returns { config, rendered, alpn }:
 * the file, what was rendered, and the ALPN policy the edge route is checked against.
 */
function configure(lab) {
  const { labDir, opts, ports, instances, certs, haproxy } = lab;
  // Every termination's backend is rendered, served or not (LAB_ROUTER_SNI_HOP=none), as a reload does.
  const routes = labRoutes({ httpPort: ports.http, httpsPort: ports.https });
  const router = {
    httpPort: ports.http,
    httpsPort: ports.https,
    statsPort: ports.stats,
    threads: opts.threads,
    maxconn: lab.maxconn,
    passthroughBalance: opts.passthroughBalance,
    http2: opts.http2,
    openshiftRelease: opts.openshiftRelease,
    checkIntervalMs: opts.checkIntervalMs,
    sniHop: opts.sniHop,
  };
  const { scaleRoutes } = lab;
  const rendered = renderRouterConfig({ labDir, router, routes, instances, certs, haproxy, scaleRoutes });
  const config = writeRouterConfig(labDir, rendered);
  checkRouterConfig(config, haproxy.path);
  const { tls } = rendered;
  lab.step(
    `Router configuration ${config} (haproxy -c: valid) for HAProxy ${haproxy.version} (${haproxy.source}, ` +
      `${haproxy.openssl}), OpenShift ${tls.openshiftRelease}'s TLS profile, ALPN ${rendered.alpn}`,
  );
  if (tls.groupsMissing.length) {
    const offered = tls.groups.join(', ') || 'its defaults';
    const text =
      `OpenShift ${tls.openshiftRelease} asks for the groups ${tls.groupsMissing.join(', ')} ` +
      `too, which ${haproxy.openssl} lacks: the router offers ${offered}`;
    lab.log(wrap(text, { first: '  note:' }));
  }
  return { config, rendered, alpn: rendered.alpn };
}

/** Waits, from outside, until every route answers through the router and every server is UP. */
async function waitForRoutes({ labDir, routes, instances, certs, signal, step }) {
  step('Waiting until every route answers through the router and every server is UP');
  await waitUntil(
    async () => {
      const servers = await backendServers(routerPaths(labDir).runtimeSocket, routes);
      if (servers.length !== routes.length * instances.length) return false;
      if (!servers.every((s) => s.status === 'UP')) return false;
      const probes = await Promise.all(routes.map((r) => probeRoute(r, { labCA: certs.labCA })));
      return probes.every((p) => p.ok);
    },
    { timeoutMs: 30000, what: 'every route answering 200 with every server UP', signal, intervalMs: 250 },
  );
}

/** Starts HAProxy on the configuration, waits for its listeners, then for every route to serve. */
async function start(lab, { config }) {
  const { opts, ports, maxconn } = lab;
  lab.step(
    `Router (HAProxy, ${opts.threads} thread(s), maxconn ${maxconn}) on :${ports.http} and :${ports.https}`,
  );
  await startRouter(lab.labDir, {
    config,
    ports,
    cpus: lab.cpus.router,
    signal: lab.signal,
    haproxy: lab.haproxy.path,
  });
  await waitForRoutes(lab);
  if (lab.scaleRoutes.length) lab.scaleAdmission = await waitScaleRoutesServing(lab);
}

/** LAB_ROUTES's further Routes: waits until the last of each termination answers 200. */
async function waitScaleRoutesServing({ scaleRoutes, certs, signal, step }) {
  step(`Waiting until the last of each termination's ${scaleRoutes.length} further Routes answers`);
  const started = Date.now();
  await waitUntil(() => lastOfEachServes(scaleRoutes, { labCA: certs.labCA }), {
    timeoutMs: 30000,
    what: 'the last further Route of each termination answering 200',
    signal,
    intervalMs: 250,
  });
  return { servingMs: Date.now() - started };
}

/** lab.json's `router`: where it listens, what it runs and what a reload renders again. */
function describe(lab, { config, rendered }, { pid, alpn }) {
  const { opts, ports, haproxy } = lab;
  return {
    kind: KIND.kind,
    pid,
    httpPort: ports.http,
    httpsPort: ports.https,
    statsPort: ports.stats,
    statsUrl: `http://127.0.0.1:${ports.stats}/`,
    metricsUrl: rendered.config.includes('prometheus-exporter')
      ? `http://127.0.0.1:${ports.stats}/metrics`
      : null,
    threads: opts.threads,
    maxconn: lab.maxconn,
    maxconnRequested: opts.maxconn,
    passthroughBalance: rendered.balance.passthrough.balance,
    balance: rendered.balance,
    key: opts.routerKey,
    haproxy: haproxySummary(haproxy),
    alpn: { policy: rendered.alpn, negotiated: alpn },
    tls: rendered.tls,
    // What a reload renders again (lib/lab/reload.js), as lab:up was asked.
    http2: opts.http2,
    openshiftRelease: opts.openshiftRelease,
    checkIntervalMs: opts.checkIntervalMs,
    sniHop: opts.sniHop,
    cpus: lab.cpus.router,
    config,
    log: logFile(lab.labDir, 'router'),
  };
}

const NO_HOP = '; no SNI hop: fe_sni on the HTTPS port, no passthrough (LAB_ROUTER_SNI_HOP=none)';

/** lab:up's and lab:status's lines: HAProxy, its stats and metrics, TLS and its configuration. */
function statusLines(router) {
  return [
    `Router: HAProxy pid ${router.pid}, ${sizingLine(router)}${router.sniHop === 'none' ? NO_HOP : ''}`,
    `  stats    ${router.statsUrl}`,
    ...(router.metricsUrl ? [`  metrics  ${router.metricsUrl}`] : []),
    ...(tlsLine(router) ? [tlsLine(router)] : []),
    `  config   ${router.config}`,
  ];
}

module.exports = {
  ...KIND,
  // The four Routes, one per termination; without the SNI hop nothing reaches passthrough.
  selectRoutes: (routes, opts) =>
    opts.sniHop === 'none' ? routes.filter((r) => r.termination !== 'passthrough') : routes,
  // Everything it needs, shared preflight checks already.
  preflight: () => [],
  configure,
  start,
  describe,
  reload,
  // It notices an instance leaving through its health checks (/readyz), as lab:rollout shows.
  endpointsViaReload: false,
  // No API server: nothing admits its Routes, it serves them from its first configuration.
  admission: async () => null,
  measureAdmission: async () => {
    throw new Error(`admission with LAB_ROUTER=${KIND.kind}: ${KIND.unsupported.admission}`);
  },
  processes: (router) => router.pid,
  controlPlane: () => null,
  counters: (state) => haproxyCounters(routerPaths(state.labDir).runtimeSocket),
  servers: (state) => haproxyServers(routerPaths(state.labDir).runtimeSocket, state.routes),
  statusLines,
  describeForResults: (router) => ({ sniHop: router.sniHop ?? 'unix' }),
};
