'use strict';
// Renders router/haproxy.cfg.template and the router's map files (os_http_be.map, ...) into the
// lab directory for the HAProxy binary and OpenShift release in use, and validates the result with
// `haproxy -c`.
const { escapeRegex } = require('../../core/text');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT } = require('../../core/paths');
const { requireTool } = require('../../core/tools');
const { SERVICE_NAME, SERVICE_HOST, NAMESPACE } = require('../common/routes');
const { intermediateProfile, supportedGroups } = require('./tls-profile');

const TEMPLATE = path.join(ROOT, 'router', 'haproxy.cfg.template');

/** The ALPN the router offers with HTTP/2 on (ROUTER_DISABLE_HTTP2=false). */
const H2_ALPN = 'h2,http/1.1';

/**
 * The router's balance when a Route has no haproxy.router.openshift.io/balance annotation (one
 * service behind the route): ROUTER_LOAD_BALANCE_ALGORITHM's default for HTTP, and
 * ROUTER_TCP_BALANCE_SCHEME's for passthrough.
 */
const DEFAULT_BALANCE = { http: 'random', edge: 'random', reencrypt: 'random', passthrough: 'source' };
/** The values the router accepts in the annotation ($balanceAlgoPattern in its template). */
const BALANCE_ALGORITHMS = ['roundrobin', 'leastconn', 'source', 'random'];

/**
 * Each route's balance: { balance, manifest, override }. The annotation (or the router's default)
 * decides, as on a cluster; `passthroughOverride` (LAB_PASSTHROUGH_BALANCE) replaces it.
 */
function routeBalances(routes, { passthroughOverride = null } = {}) {
  return Object.fromEntries(
    routes.map((r) => {
      const annotated = BALANCE_ALGORITHMS.includes(r.balance) ? r.balance : null;
      const manifest = annotated || DEFAULT_BALANCE[r.termination];
      const override = r.termination === 'passthrough' ? passthroughOverride : null;
      return [r.termination, { balance: override || manifest, manifest, override }];
    }),
  );
}

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

/** Map lines as the router writes them: a regex on Host[:port][/path] (the `base` fetch). */
function hostPattern(host) {
  return `^${escapeRegex(host)}(:[0-9]+)?(/.*)?$`;
}

/**
 * The router's cert_config.map (crt-list) for routes with their own certificate: with HTTP/2 on,
 * each such line offers h2 (generateHAProxyCertConfigMap in openshift/router).
 */
function certConfigLines(routes, routeCerts, { http2 }) {
  return routes
    .filter((r) => routeCerts[r.host])
    .map((r) => [routeCerts[r.host], ...(http2 ? [`[alpn ${H2_ALPN}]`] : []), r.host].join(' '));
}

/** The router's map files for the four Routes and, after them, LAB_ROUTES's `scaleRoutes`. */
function mapFiles(routes, { routeCerts = {}, http2 = false, scaleRoutes = [] } = {}) {
  const byTermination = Object.fromEntries(routes.map((r) => [r.termination, r]));
  const { edge, reencrypt } = byTermination;
  const all = [...routes, ...scaleRoutes];
  const of = (...terminations) => all.filter((r) => terminations.includes(r.termination));
  return {
    // Plain-HTTP frontend: http routes (and edge/reencrypt routes whose policy is Allow: none here).
    'os_http_be.map': of('http').map((r) => `${hostPattern(r.host)} ${r.backend}`),
    // TLS-terminating frontends (fe_sni, fe_no_sni).
    'os_edge_reencrypt_be.map': of('edge', 'reencrypt').map((r) => `${hostPattern(r.host)} ${r.backend}`),
    // insecureEdgeTerminationPolicy: Redirect.
    'os_route_http_redirect.map': all
      .filter((r) => r.insecurePolicy === 'Redirect')
      .map((r) => `${hostPattern(r.host)} 1`),
    // SNI frontend: which hosts are passthrough, and their tcp backends.
    'os_sni_passthrough.map': of('passthrough').map((r) => `^${escapeRegex(r.host)}$ 1`),
    'os_tcp_be.map': of('passthrough').map((r) => `^${escapeRegex(r.host)}$ ${r.backend}`),
    'cert_config.map': certConfigLines([edge, reencrypt], routeCerts, { http2 }),
  };
}

/**
 * The backend sections of LAB_ROUTES's Routes: each its termination's section of the template,
 * filled for its own backend, annotations, balance and Service (its servers verify
 * <service>.<namespace>.svc on re-encrypt, as the router verifies a service-ca certificate).
 */
function scaleBackends(
  template,
  scaleRoutes,
  { instances, serviceCA, checkIntervalMs, http2, balance, sniAuto },
) {
  const sections = {};
  for (const [section, termination] of template.matchAll(
    /^backend \{\{ backend_(\w+) \}\}\n[\s\S]*?\{\{ servers_\1 \}\}$/gm,
  )) {
    sections[termination] = section;
  }
  return scaleRoutes
    .map((route) => {
      const t = route.termination;
      const servers = serverLines(instances, {
        routes: { [t]: route },
        serviceCA,
        checkIntervalMs,
        http2,
        sniAuto,
        service: route.name,
        serviceHost: `${route.name}.${NAMESPACE}.svc`,
      });
      const values = {
        [`backend_${t}`]: route.backend,
        [`balance_${t}`]: balance[t].balance,
        [`route_options_${t}`]: routeOptionLines(route),
        [`servers_${t}`]: servers[t],
      };
      if (!sections[t]) throw new Error(`router template: no backend section for ${t}`);
      return `\n${sections[t].replace(/\{\{ (\w+) \}\}/g, (_, key) => {
        if (!(key in values)) throw new Error(`router template: no value for {{ ${key} }} in a ${t} backend`);
        return values[key];
      })}`;
    })
    .join('\n');
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

/**
 * Server lines per termination, named like the router's endpoints (pod:<pod>:<svc>:<port>:<ip>:<port>).
 * `sniAuto`: an HAProxy (3.3+) that sends the request's Host as SNI by default and verifies the
 * service's certificate against it instead of verifyhost; OpenShift's template predates that, so a
 * re-encrypt route to a service-CA certificate fails there (503): the lab turns it off to measure.
 */
function serverLines(
  instances,
  {
    routes,
    serviceCA,
    checkIntervalMs,
    http2,
    sniAuto = false,
    service = SERVICE_NAME,
    serviceHost = SERVICE_HOST,
  },
) {
  const check = `check inter ${checkIntervalMs}ms`;
  const noSniAuto = sniAuto ? ' no-sni-auto' : '';
  const verify = `verify required ca-file ${serviceCA}`;
  const cookie = (termination, id) => (routes[termination]?.disableCookies ? '' : ` cookie ${md5(id)}`);
  const lines = { http: [], edge: [], reencrypt: [], passthrough: [] };
  for (const inst of instances) {
    const plainId = `pod:${inst.name}:${service}:http:127.0.0.1:${inst.port}`;
    const tlsId = `pod:${inst.name}:${service}:https:127.0.0.1:${inst.tlsPort}`;
    for (const termination of ['http', 'edge']) {
      lines[termination].push(
        `  server ${plainId} 127.0.0.1:${inst.port}${cookie(termination, plainId)} weight 1 ${check}`,
      );
    }
    lines.reencrypt.push(
      `  server ${tlsId} 127.0.0.1:${inst.tlsPort}${cookie('reencrypt', tlsId)} weight 1` +
        ` ssl${http2 ? ` alpn ${H2_ALPN}` : ''}${noSniAuto} verifyhost ${serviceHost} ${verify} ${check}`,
    );
    lines.passthrough.push(
      `  server ${tlsId} 127.0.0.1:${inst.tlsPort} weight 1` +
        ` ${check} check-ssl check-sni ${SERVICE_HOST} verifyhost ${SERVICE_HOST} ${verify}`,
    );
  }
  return Object.fromEntries(Object.entries(lines).map(([k, v]) => [k, v.join('\n')]));
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
 * The ALPN policy the router follows: 'http/1.1' (the default: ROUTER_DISABLE_HTTP2=true, so
 * `no-alpn` where HAProxy has it, nothing offered on 2.6) or 'h2,http/1.1' on edge and re-encrypt.
 */
const alpnPolicy = (http2) => (http2 ? H2_ALPN : 'http/1.1');

/**
 * The TLS entry (`router.sniHop`): 'unix' (OpenShift's layout) peeks at the SNI in public_ssl and
 * hands edge and re-encrypt over a unix socket with the PROXY protocol to fe_sni, which terminates
 * TLS; 'none' lets fe_sni bind the HTTPS port itself, public_ssl disabled: the hop's cost, alone.
 */
function sniHopValues({ sniHop = 'unix', httpsPort }, runDir) {
  if (sniHop === 'none') {
    return {
      public_ssl_bind:
        '  # LAB_ROUTER_SNI_HOP=none: fe_sni binds the HTTPS port, nothing reaches passthrough.\n  disabled',
      fe_sni_bind: `127.0.0.1:${httpsPort}`,
      fe_sni_accept_proxy: '',
    };
  }
  return {
    public_ssl_bind: `  bind 127.0.0.1:${httpsPort}`,
    fe_sni_bind: `unix@${runDir}/haproxy-sni.sock`,
    fe_sni_accept_proxy: ' accept-proxy',
  };
}

/**
 * Renders the configuration for the lab: `router` = { httpPort, httpsPort, statsPort, threads,
 * maxconn, passthroughBalance (override or null), http2, openshiftRelease, checkIntervalMs,
 * sniHop },
 * `routes` from routes.js, `instances` with their ports, `certs` with defaultPem, routeCerts and
 * serviceCA, `haproxy` from haproxy.js's describeHaproxy. Returns the rendered text, the map
 * files and what was rendered: { tls, alpn, balance }.
 */
function renderRouterConfig({ labDir, router, routes, instances, certs, haproxy, scaleRoutes = [] }) {
  const { mapDir, runDir } = routerPaths(labDir);
  const by = Object.fromEntries(routes.map((r) => [r.termination, r]));
  const http2 = Boolean(router.http2);
  const servers = serverLines(instances, {
    routes: by,
    serviceCA: certs.serviceCA,
    checkIntervalMs: router.checkIntervalMs,
    http2,
    sniAuto: haproxy.sniAuto,
  });
  const profile = intermediateProfile(router.openshiftRelease);
  const groups = profile.groups
    ? supportedGroups(haproxy.path, profile.groups, certs.defaultPem)
    : { supported: null, missing: [] };
  const balance = routeBalances(routes, { passthroughOverride: router.passthroughBalance });
  const maps = mapFiles(routes, { routeCerts: certs.routeCerts || {}, http2, scaleRoutes });
  const template = fs.readFileSync(TEMPLATE, 'utf8');
  const config = fillTemplate(template, {
    scale_backends: scaleBackends(template, scaleRoutes, {
      instances,
      serviceCA: certs.serviceCA,
      checkIntervalMs: router.checkIntervalMs,
      http2,
      balance,
      sniAuto: haproxy.sniAuto,
    }),
    maxconn: router.maxconn,
    threads: router.threads,
    run_dir: runDir,
    map_dir: mapDir,
    openshift_release: profile.release,
    ciphers: profile.ciphers,
    ciphersuites: profile.ciphersuites,
    curves: curvesLines(profile, groups),
    check_interval: `${router.checkIntervalMs}ms`,
    stats_port: router.statsPort,
    http_port: router.httpPort,
    ...sniHopValues(router, runDir),
    https_port_suffix: router.httpsPort === 443 ? '' : `:${router.httpsPort}`,
    // 2.8+ offers h2 by default; the router turns that off. 2.6 offers nothing and has no keyword.
    no_alpn: haproxy.noAlpn ? ' no-alpn' : '',
    sni_crt_list: maps['cert_config.map'].length ? ` crt-list ${mapDir}/cert_config.map` : '',
    prometheus: haproxy.prometheus
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
    balance_http: balance.http.balance,
    balance_edge: balance.edge.balance,
    balance_reencrypt: balance.reencrypt.balance,
    balance_passthrough: balance.passthrough.balance,
    servers_http: servers.http,
    servers_edge: servers.edge,
    servers_reencrypt: servers.reencrypt,
    servers_passthrough: servers.passthrough,
  });
  return {
    config,
    maps,
    mapDir,
    runDir,
    tls: {
      openshiftRelease: profile.release,
      ciphers: profile.ciphers,
      ciphersuites: profile.ciphersuites,
      groups: groups.supported,
      groupsMissing: groups.missing,
    },
    alpn: alpnPolicy(http2),
    balance,
  };
}

/** ssl-default-bind-curves for a release that sets groups: only those this OpenSSL has. */
function curvesLines(profile, { supported, missing }) {
  if (!profile.groups) {
    return `  # OpenShift ${profile.release} sets no groups: HAProxy's and OpenSSL's defaults apply.`;
  }
  const lines = [];
  if (!supported.length) {
    return `  # OpenShift ${profile.release} asks for ${profile.groups.join(':')}; this HAProxy's OpenSSL has none of them.`;
  }
  if (missing.length) {
    lines.push(
      `  # OpenShift ${profile.release} asks for ${profile.groups.join(':')}; this HAProxy's OpenSSL lacks ` +
        `${missing.join(', ')}, so ${missing.length === 1 ? 'it is' : 'they are'} left out.`,
    );
  }
  lines.push(`  ssl-default-bind-curves ${supported.join(':')}`);
  return lines.join('\n');
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
  routerPaths,
  fillTemplate,
  mapFiles,
  routeBalances,
  alpnPolicy,
  DEFAULT_BALANCE,
  H2_ALPN,
};
