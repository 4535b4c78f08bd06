'use strict';
// What the run was measured on: tool versions, cores, the router's knobs, the lab's placement, and
// what shapes TLS cost: the router's HAProxy and its OpenSSL, its key, the negotiated group, ALPN.
const os = require('node:os');
const { findTool, toolVersion } = require('../core/tools');
const { sysctl } = require('../core/proc');
const { describeMonitoring } = require('./cluster-figures');
const { backendOf, DEFAULT_ROUTER } = require('../lab/routers');

function versionOf(name, args, pattern) {
  const file = findTool(name);
  if (!file) return null;
  const line = toolVersion(file, args) || '';
  const match = pattern.exec(line);
  return match ? match[1] : line || null;
}

/**
 * The environment block of results.json. `lab` is lab.json (null for a cluster);
 * `negotiatedGroup` the group of one full handshake with the edge route (null when not measured);
 * `monitoring` the Prometheus the run reads (null without one).
 */
function describeEnvironment({ k6, lab, opts, target, negotiatedGroup = null, monitoring = null }) {
  const cpus = os.cpus();
  // The binary the lab runs, as lab.json recorded it; otherwise whichever would be found.
  const haproxy = lab && lab.router.haproxy;
  return {
    host: os.hostname(),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus.length ? cpus[0].model.trim() : null,
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    k6: (/v(\d+\.\d+\.\d+)/.exec(toolVersion(k6, ['version']) || '') || [])[1] || null,
    // A lab whose router is not HAProxy (the Gateway's Envoy) names none.
    haproxy: lab ? (haproxy?.build ?? null) : versionOf('haproxy', ['-v'], /version (\S+)/),
    haproxyOpenssl: haproxy ? haproxy.openssl : null,
    openshiftRelease: lab && lab.router.tls ? lab.router.tls.openshiftRelease : null,
    alpnPolicy: lab && lab.router.alpn ? lab.router.alpn.policy : null,
    negotiatedGroup,
    node: process.versions.node,
    wrk: opts.crossCheck ? versionOf('wrk', ['--version'], /wrk (\S+)/) : null,
    kernel: {
      ephemeralPorts: sysctl('net.ipv4.ip_local_port_range'),
      tcpTwReuse: sysctl('net.ipv4.tcp_tw_reuse'),
      somaxconn: sysctl('net.core.somaxconn'),
    },
    target: target.mode,
    appsDomain: target.appsDomain,
    namespace: target.namespace,
    router: lab
      ? {
          kind: lab.router.kind || DEFAULT_ROUTER,
          ...backendOf(lab.router).describeForResults(lab.router),
          threads: lab.router.threads,
          maxconn: lab.router.maxconn,
          maxconnRequested: lab.router.maxconnRequested ?? null,
          passthroughBalance: lab.router.passthroughBalance ?? null,
          ...(lab.router.balance ? { balance: lab.router.balance } : {}),
          ...(lab.router.tls
            ? { tlsGroups: { offered: lab.router.tls.groups, missing: lab.router.tls.groupsMissing } }
            : {}),
          key: lab.router.key ?? null,
          cpus: lab.router.cpus,
        }
      : null,
    replicas: lab ? lab.instances.length : null,
    // LAB_ROUTES: the Routes the lab's router served (each a backend of its own).
    routes: lab ? lab.routes.length + (lab.scaleRoutes ? lab.scaleRoutes.count : 0) : null,
    redis: lab ? lab.redis.mode : null,
    placement: lab ? lab.placement : null,
    k6Cpus: target.k6Cpus || null,
    // A cluster read through its API: where, and the router's size (its IngressController).
    api: target.api ? { server: target.api.server, context: target.api.context } : null,
    clusterRouter: target.clusterRouter || null,
    openshiftDefaults: lab ? lab.openshiftDefaults || null : null,
    prometheus: describeMonitoring(monitoring),
  };
}

module.exports = { describeEnvironment };
