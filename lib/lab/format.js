'use strict';
// Text for people: the lab's routes, processes, stats URL and placement, as lab:up and lab:status
// print them.
const { table } = require('../core/text');

/** A console table of the lab: header row first, indented, no rule under it. */
const labTable = ([head, ...rows]) => table({ head, rows }, { indent: '  ', rule: false });

function placementLine(placement) {
  if (!placement || !placement.free) {
    return 'not pinned (set LAB_CPUS, e.g. router=0,service=1,redis=1, to keep the load generator off them)';
  }
  const show = (cores, none = 'any') => (cores && cores.length ? cores.join(',') : none);
  return (
    `router cores ${show(placement.router)}, service ${show(placement.service)}, ` +
    `redis ${show(placement.redis)}, free for the load generator: ${show(placement.free, 'none')}`
  );
}

/** The router's binary and what shapes TLS, in one line (null for a lab.json that lacks them). */
function tlsLine(router) {
  if (!router.haproxy) return null;
  const { haproxy, alpn, tls } = router;
  const left =
    tls && tls.groupsMissing.length ? ` (${tls.groupsMissing.join(', ')} left out: not in this OpenSSL)` : '';
  return (
    `  haproxy  ${haproxy.version} (${haproxy.source}: ${haproxy.path}), ${haproxy.openssl}; ALPN ${alpn.policy}; ` +
    `OpenShift ${tls.openshiftRelease} Intermediate profile${tls.groups ? `, groups ${tls.groups.join(':')}${left}` : ''}`
  );
}

/** The summary lab:up prints once the lab is up. */
function formatLab(state) {
  const lines = [
    '',
    'Routes (namespace router-lab):',
    labTable([['NAME', 'TERMINATION', 'URL'], ...state.routes.map((r) => [r.name, r.termination, r.url])]),
    '',
    `Router: HAProxy pid ${state.router.pid}, ${state.router.threads} thread(s), maxconn ${state.router.maxconn}`,
    `  stats    ${state.router.statsUrl}`,
  ];
  if (state.router.metricsUrl) lines.push(`  metrics  ${state.router.metricsUrl}`);
  if (tlsLine(state.router)) lines.push(tlsLine(state.router));
  lines.push(
    `  config   ${state.router.config}`,
    `Placement: ${placementLine(state.placement)}`,
    `CA to trust: ${state.certs.labCA} (router) and ${state.certs.serviceCA} (passthrough)`,
    '',
    'Try it (curl resolves *.localhost to 127.0.0.1 by itself):',
    `  curl --cacert ${state.certs.labCA} ${state.routes.find((r) => r.termination === 'edge').url}/api/whoami`,
  );
  return lines.join('\n');
}

/** The report lab:status prints. */
function formatStatus(report) {
  if (!report.state) {
    const lines = [`No lab is running in ${report.labDir} (no lab.json). Start one with 'npm run lab:up'.`];
    if (report.leftovers.length) {
      lines.push(
        `But these processes from an unfinished lab:up are still running: ` +
          `${report.leftovers.map((l) => `${l.name} (pid ${l.pid})`).join(', ')}; 'npm run lab:down' stops them.`,
      );
    }
    return lines.join('\n');
  }
  const { state } = report;
  const lines = [
    `Lab in ${report.labDir}, started ${state.startedAt}: ${report.running ? 'healthy' : 'NOT healthy'}`,
    '',
    'Routes:',
    labTable([
      ['NAME', 'TERMINATION', 'URL', 'ANSWERS'],
      ...report.routes.map((r) => [
        r.name,
        r.termination,
        r.url,
        r.probe.ok ? `200 from ${r.probe.instance}` : r.probe.status || r.probe.error,
      ]),
    ]),
    '',
    'Processes:',
    labTable([
      ['NAME', 'PID', 'HEALTH', 'CPUS'],
      ...report.processes.map((p) => [p.name, p.pid, p.health, p.cpus || 'any']),
    ]),
    '',
    'Router servers (HAProxy health checks on /readyz):',
    labTable([
      ['BACKEND', 'SERVER', 'STATUS'],
      ...report.servers.map((s) => [s.backend, s.server, s.status]),
    ]),
    '',
    `Router: ${state.router.threads} thread(s), maxconn ${state.router.maxconn}` +
      (state.router.maxconn !== state.router.maxconnRequested
        ? ` (lowered from ${state.router.maxconnRequested}: file-descriptor limit)`
        : ''),
    `  stats    ${state.router.statsUrl}`,
  ];
  if (state.router.metricsUrl) lines.push(`  metrics  ${state.router.metricsUrl}`);
  if (tlsLine(state.router)) lines.push(tlsLine(state.router));
  lines.push(`Redis: ${state.redis.mode} on ${state.redis.ports.join(', ')}`);
  lines.push(`Placement: ${placementLine(state.placement)}`);
  return lines.join('\n');
}

module.exports = { formatLab, formatStatus, placementLine };
