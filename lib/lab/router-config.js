'use strict';
// Renders router/haproxy.cfg.template and the router's map files (os_http_be.map, ...) into the
// lab directory, and validates the result with `haproxy -c`.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT } = require('../core/paths');
const { requireTool } = require('../core/tools');
const { SERVICE_NAME, SERVICE_HOST } = require('./routes');

const TEMPLATE = path.join(ROOT, 'router', 'haproxy.cfg.template');

/** OpenShift 4's "Intermediate" TLS profile, split as the ingress operator splits it. */
const INTERMEDIATE_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
  'DHE-RSA-AES128-GCM-SHA256',
  'DHE-RSA-AES256-GCM-SHA384',
].join(':');
const INTERMEDIATE_CIPHERSUITES =
  'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256';

/** Where the rendered files live inside the lab directory, and the router's runtime API socket. */
function routerPaths(labDir) {
  const runDir = path.join(labDir, 'run');
  return {
    config: path.join(labDir, 'haproxy.cfg'),
    mapDir: path.join(labDir, 'router'),
    runDir,
    // The template's `stats socket {{ run_dir }}/haproxy.sock`.
    runtimeSocket: path.join(runDir, 'haproxy.sock'),
  };
}

const md5 = (text) => crypto.createHash('md5').update(text).digest('hex');
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Map lines as the router writes them: a regex on Host[:port][/path] (the `base` fetch). */
function hostPattern(host) {
  return `^${escapeRegex(host)}(:[0-9]+)?(/.*)?$`;
}

function mapFiles(routes) {
  const byTermination = Object.fromEntries(routes.map((r) => [r.termination, r]));
  const { http, edge, passthrough, reencrypt } = byTermination;
  return {
    // Plain-HTTP frontend: http routes (and edge/reencrypt routes whose policy is Allow: none here).
    'os_http_be.map': [`${hostPattern(http.host)} ${http.backend}`],
    // TLS-terminating frontends (fe_sni, fe_no_sni).
    'os_edge_reencrypt_be.map': [
      `${hostPattern(edge.host)} ${edge.backend}`,
      `${hostPattern(reencrypt.host)} ${reencrypt.backend}`,
    ],
    // insecureEdgeTerminationPolicy: Redirect.
    'os_route_http_redirect.map': routes
      .filter((r) => r.insecurePolicy === 'Redirect')
      .map((r) => `${hostPattern(r.host)} 1`),
    // SNI frontend: which hosts are passthrough, and their tcp backends.
    'os_sni_passthrough.map': [`^${escapeRegex(passthrough.host)}$ 1`],
    'os_tcp_be.map': [`^${escapeRegex(passthrough.host)}$ ${passthrough.backend}`],
  };
}

/**
 * Backend lines for what a Route's annotations ask, as the router template renders them:
 * haproxy.router.openshift.io/timeout (`timeout server`, or `timeout tunnel` for passthrough) and
 * the session cookie unless haproxy.router.openshift.io/disable_cookies.
 */
function routeOptionLines(route) {
  const lines = [];
  const passthrough = route.termination === 'passthrough';
  if (route.timeout) lines.push(`  timeout ${passthrough ? 'tunnel' : 'server'} ${route.timeout}`);
  if (passthrough) return lines.join('\n'); // the router never sees HTTP here: no cookie possible
  if (route.disableCookies) {
    lines.push('  # disable_cookies: no session cookie, so every request is balanced like the first');
  } else {
    const secure = route.termination === 'http' ? '' : ' secure attr SameSite=None';
    lines.push(`  cookie ${md5(`router-lab:${route.name}`)} insert indirect nocache httponly${secure}`);
  }
  return lines.join('\n');
}

/** Server lines per termination, named like the router's endpoints (pod:<pod>:<svc>:<port>:<ip>:<port>). */
function serverLines(instances, { routes, serviceCA, checkIntervalMs }) {
  const check = `check inter ${checkIntervalMs}ms`;
  const verify = `verify required ca-file ${serviceCA}`;
  const cookie = (termination, id) => (routes[termination].disableCookies ? '' : ` cookie ${md5(id)}`);
  const lines = { http: [], edge: [], reencrypt: [], passthrough: [] };
  for (const inst of instances) {
    const plainId = `pod:${inst.name}:${SERVICE_NAME}:http:127.0.0.1:${inst.port}`;
    const tlsId = `pod:${inst.name}:${SERVICE_NAME}:https:127.0.0.1:${inst.tlsPort}`;
    for (const termination of ['http', 'edge']) {
      lines[termination].push(
        `  server ${plainId} 127.0.0.1:${inst.port}${cookie(termination, plainId)} weight 1 ${check}`,
      );
    }
    lines.reencrypt.push(
      `  server ${tlsId} 127.0.0.1:${inst.tlsPort}${cookie('reencrypt', tlsId)} weight 1` +
        ` ssl verifyhost ${SERVICE_HOST} ${verify} sni str(${SERVICE_HOST})` +
        ` ${check} check-sni ${SERVICE_HOST}`,
    );
    lines.passthrough.push(
      `  server ${tlsId} 127.0.0.1:${inst.tlsPort} weight 1` +
        ` ${check} check-ssl check-sni ${SERVICE_HOST} verifyhost ${SERVICE_HOST} ${verify}`,
    );
  }
  return Object.fromEntries(Object.entries(lines).map(([k, v]) => [k, v.join('\n')]));
}

/** True when this HAProxy build has the Prometheus exporter (USE_PROMEX). */
function hasPrometheusExporter(haproxy = requireTool('haproxy')) {
  try {
    return /\bUSE_PROMEX=1\b|prometheus-exporter/i.test(
      execFileSync(haproxy, ['-vv'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    );
  } catch {
    return false;
  }
}

/** Fills {{ name }} placeholders; an unknown or unfilled placeholder is a bug, so it throws. */
function fillTemplate(template, values) {
  const used = new Set();
  const text = template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_, key) => {
    if (!(key in values)) throw new Error(`router template: no value for {{ ${key} }}`);
    used.add(key);
    return String(values[key]);
  });
  const unused = Object.keys(values).filter((k) => !used.has(k));
  if (unused.length) throw new Error(`router template: values never used: ${unused.join(', ')}`);
  return text;
}

/**
 * Renders the configuration for the lab: `router` = { httpPort, httpsPort, statsPort, threads,
 * maxconn, passthroughBalance, checkIntervalMs }, `routes` from routes.js, `instances` with their
 * ports, `certs` with defaultPem and serviceCA. Returns the rendered text and the map files.
 */
function renderRouterConfig({ labDir, router, routes, instances, certs, prometheus = false }) {
  const { mapDir, runDir } = routerPaths(labDir);
  const by = Object.fromEntries(routes.map((r) => [r.termination, r]));
  const servers = serverLines(instances, {
    routes: by,
    serviceCA: certs.serviceCA,
    checkIntervalMs: router.checkIntervalMs,
  });
  const config = fillTemplate(fs.readFileSync(TEMPLATE, 'utf8'), {
    maxconn: router.maxconn,
    threads: router.threads,
    run_dir: runDir,
    map_dir: mapDir,
    ciphers: INTERMEDIATE_CIPHERS,
    ciphersuites: INTERMEDIATE_CIPHERSUITES,
    check_interval: `${router.checkIntervalMs}ms`,
    stats_port: router.statsPort,
    http_port: router.httpPort,
    https_port: router.httpsPort,
    prometheus: prometheus
      ? '  # Prometheus exporter built into this HAProxy (the router serves metrics from its own binary).\n' +
        '  http-request use-service prometheus-exporter if { path /metrics }'
      : '  # This HAProxy build has no Prometheus exporter (USE_PROMEX); only the stats page.',
    default_cert: certs.defaultPem,
    backend_http: by.http.backend,
    backend_edge: by.edge.backend,
    backend_reencrypt: by.reencrypt.backend,
    backend_passthrough: by.passthrough.backend,
    route_options_http: routeOptionLines(by.http),
    route_options_edge: routeOptionLines(by.edge),
    route_options_reencrypt: routeOptionLines(by.reencrypt),
    route_options_passthrough: routeOptionLines(by.passthrough),
    passthrough_balance: router.passthroughBalance,
    servers_http: servers.http,
    servers_edge: servers.edge,
    servers_reencrypt: servers.reencrypt,
    servers_passthrough: servers.passthrough,
  });
  return { config, maps: mapFiles(routes), mapDir, runDir };
}

/** Writes the rendered configuration and maps; returns the config path. */
function writeRouterConfig(labDir, rendered) {
  const { config } = routerPaths(labDir);
  fs.mkdirSync(rendered.mapDir, { recursive: true });
  fs.mkdirSync(rendered.runDir, { recursive: true });
  for (const [name, lines] of Object.entries(rendered.maps)) {
    fs.writeFileSync(path.join(rendered.mapDir, name), lines.length ? `${lines.join('\n')}\n` : '');
  }
  fs.writeFileSync(config, rendered.config);
  return config;
}

/** Runs `haproxy -c`; throws with HAProxy's own message when the configuration is invalid. */
function checkRouterConfig(configFile, haproxy = requireTool('haproxy')) {
  try {
    return execFileSync(haproxy, ['-c', '-f', configFile], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const out = `${err.stdout || ''}${err.stderr || ''}`.trim();
    throw new Error(`haproxy -c rejected ${configFile}:\n${out}`, { cause: err });
  }
}

module.exports = {
  renderRouterConfig,
  writeRouterConfig,
  checkRouterConfig,
  hasPrometheusExporter,
  routerPaths,
  fillTemplate,
  mapFiles,
  INTERMEDIATE_CIPHERS,
  INTERMEDIATE_CIPHERSUITES,
};
