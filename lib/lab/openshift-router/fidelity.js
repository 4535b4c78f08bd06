'use strict';
// The template router's fidelity to the real one: both configurations parsed into sections, lines
// normalized for what differs by nature (paths, addresses, server names), every line one side lacks
// listed; each known difference is kept below with its reason, and docs/lab.md shows the same ids.
const fs = require('node:fs');
const path = require('node:path');
const { renderRouterConfig } = require('../haproxy/router-config');
const { describeHaproxy } = require('../haproxy/binary');
const { OPENSHIFT_DEFAULTS } = require('../common/options');
const { renderedConfig } = require('./work-dir');
const { labRoutes } = require('../common/routes');

const SECTION = /^(global|defaults|frontend|backend|listen|resolvers|peers|userlist|cache|program)\b\s*(\S*)/;

/** Why the template lab differs where it does (id, side, section, line pattern, reason). */
const KNOWN_DIFFERENCES = [
  {
    id: 'health-check-readyz',
    side: 'both',
    section: /^backend /,
    line: /^option httpchk GET \/readyz$|^server \S+:https <address> weight 1 check inter /,
    reason:
      "the template router checks /readyz (over TLS for passthrough) so that an instance's drain shows; " +
      'the real router checks TCP only, and learns of a leaving pod from its endpoints',
  },
  {
    id: 'forwarded-ipv6',
    side: 'both',
    section: /^backend be_(http|edge_http|secure):/,
    line: /^(acl ipv6_addr |http-request add-header Forwarded )/,
    reason: "the real router adds an IPv6 form of the Forwarded header; the lab's clients are IPv4 only",
  },
  {
    id: 'redirect-port',
    side: 'both',
    section: /^frontend public$/,
    line: /^http-request redirect location /,
    reason:
      "the lab's HTTPS port is not 443, so its redirect names the port; the real router's relies on 443",
  },
  {
    id: 'stats-listener',
    side: 'template',
    section: /^listen stats$/,
    line: /./,
    reason:
      "the template router serves HAProxy's stats page and /metrics itself; the real router's Go process " +
      'serves /metrics and health on the stats port, and its HAProxy has no stats listener',
  },
  {
    id: 'process-settings',
    side: 'openshift',
    section: /^(global|defaults)$/,
    line: /^(no strict-limits|daemon|ca-base |crt-base |errorfile |default-server init-addr )/,
    reason:
      'how the real router runs HAProxy (a daemon, its error pages, DNS resolution of servers); ' +
      'none changes how a request to a running server is served',
  },
  {
    id: 'resolvers',
    side: 'openshift',
    section: /^resolvers /,
    line: /./,
    reason: 'DNS resolvers for servers named by host; the lab names servers by address',
  },
  {
    id: 'cert-list',
    side: 'both',
    section: /^frontend fe_sni$/,
    line: /^bind <run>\/haproxy-sni\.sock ssl crt /,
    reason:
      "the real router's per-route certificates (empty without a route certificate); the template adds them only with LAB_ROUTER_HTTP2",
  },
];

/** A line as both routers would write it if they ran on the same paths, addresses and names. */
function normalize(line) {
  return line
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/\S*\/(os_\w+\.map|cert_config\.map)/g, '<conf>/$1')
    .replace(/\S*\/(haproxy(-no)?-sni\.sock|haproxy\.sock)/g, '<run>/$1')
    .replace(/\S*\/(error-page-\d+\.http)/g, '<conf>/$1')
    .replace(/^server pod:([^:]+):[^:]+:([^:]+):\S+ \S+/, 'server $1:$2 <address>')
    .replace(/ cookie [0-9a-f]{32}/, '');
}

/** A configuration as { '<kind> <name>': Set of normalized lines }; comments and blanks dropped. */
function parseConfig(text) {
  const sections = {};
  let current = null;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').replace(/^\s*#.*$/, '');
    if (!line.trim()) continue;
    const head = /^\S/.test(line) && SECTION.exec(line.trim());
    if (head) {
      current = `${head[1]}${head[2] ? ` ${head[2]}` : ''}`;
      sections[current] ??= new Set();
    } else if (current) {
      sections[current].add(normalize(line));
    }
  }
  return sections;
}

/** Every line one configuration has and the other lacks: [{ section, side, line }]. */
function compareConfigs(templateText, openshiftText) {
  const sides = { template: parseConfig(templateText), openshift: parseConfig(openshiftText) };
  const differences = [];
  const names = new Set([...Object.keys(sides.template), ...Object.keys(sides.openshift)]);
  for (const section of [...names].sort()) {
    for (const [side, other] of [
      ['template', 'openshift'],
      ['openshift', 'template'],
    ]) {
      const mine = sides[side][section] || new Set();
      const theirs = sides[other][section] || new Set();
      for (const line of mine) if (!theirs.has(line)) differences.push({ section, side, line });
    }
  }
  return differences;
}

/** The known difference that explains `diff`, or undefined. */
const explain = (diff) =>
  KNOWN_DIFFERENCES.find(
    (k) =>
      (k.side === 'both' || k.side === diff.side) && k.section.test(diff.section) && k.line.test(diff.line),
  );

/**
 * The comparison's verdict: { unexplained, stale, explained }: differences no known entry explains,
 * known entries that explain nothing any more (fixed, or the template changed), and the rest.
 */
function fidelity(templateText, openshiftText) {
  const differences = compareConfigs(templateText, openshiftText);
  const explained = differences.map((d) => ({ ...d, known: explain(d)?.id })).filter((d) => d.known);
  const unexplained = differences.filter((d) => !explain(d));
  const stale = KNOWN_DIFFERENCES.filter((k) => !explained.some((d) => d.known === k.id)).map((k) => k.id);
  return { unexplained, stale, explained };
}

/**
 * The running openshift lab's two configurations for the same Routes, instances, certificates,
 * ports, threads and HAProxy: { template, openshift } (text). The template is rendered at
 * OpenShift's health-check interval, as the real router runs.
 */
function configurationsOf(state) {
  const { router } = state;
  const rendered = renderRouterConfig({
    labDir: path.join(state.labDir, 'fidelity'),
    router: {
      httpPort: router.httpPort,
      httpsPort: router.httpsPort,
      statsPort: router.statsPort,
      threads: router.threads,
      maxconn: router.maxconn,
      passthroughBalance: null,
      http2: router.http2,
      openshiftRelease: router.openshiftRelease,
      checkIntervalMs: OPENSHIFT_DEFAULTS.checkIntervalMs,
    },
    // From the Route manifests, as lab:up read them (lab.json keeps no annotations).
    routes: labRoutes({ httpPort: router.httpPort, httpsPort: router.httpsPort }).filter((r) =>
      state.routes.some((s) => s.name === r.name),
    ),
    instances: state.instances,
    certs: state.certs,
    haproxy: describeHaproxy(router.haproxy.path),
    scaleRoutes: state.scaleRoutes ? state.scaleRoutes.routes : [],
  });
  const openshift = fs.readFileSync(renderedConfig(router.workDir), 'utf8');
  return { template: rendered.config, openshift };
}

module.exports = { configurationsOf, KNOWN_DIFFERENCES, normalize, parseConfig, compareConfigs, fidelity };
