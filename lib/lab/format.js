'use strict';
// Text for people: the lab's routes, processes, stats URL and placement, as lab:up and lab:status
// print them.
const { table } = require('../core/text');
const { backendOf } = require('./routers');

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

/** The summary lab:up prints once the lab is up. */
function formatLab(state) {
  const edge = state.routes.find((r) => r.termination === 'edge') || state.routes[0];
  const lines = [
    '',
    'Routes (namespace router-lab):',
    labTable([['NAME', 'TERMINATION', 'URL'], ...state.routes.map((r) => [r.name, r.termination, r.url])]),
    ...scaleLines(state.scaleRoutes),
    '',
    ...backendOf(state.router).statusLines(state.router),
  ];
  lines.push(
    `Placement: ${placementLine(state.placement)}`,
    `CA to trust: ${state.certs.labCA} (router) and ${state.certs.serviceCA} (passthrough)`,
    '',
    'Try it (curl resolves *.localhost to 127.0.0.1 by itself):',
    `  curl --cacert ${state.certs.labCA} ${edge.url}/api/whoami`,
  );
  return lines.join('\n');
}

/** A router configured from the API: each route object's admission now, and the last latencies. */
function admissionLines(admission) {
  if (!admission) return [];
  const lines = [
    '',
    admission.title,
    labTable([
      ['NAME', 'ADMITTED', 'HOST'],
      ...admission.routes.map((r) => [
        r.name,
        r.error || (r.admitted ? 'True' : r.rejected ? `False: ${r.reason}` : 'not yet'),
        r.host || '-',
      ]),
    ]),
  ];
  const last = admission.lastMeasured;
  lines.push(
    last
      ? `Admission latency (${last.measuredAt}, ${last.samples} routes, waiting for ${last.waitsFor}): ` +
          `admitted p50 ${last.admitted.p50} ms, first 200 p50 ${last.firstOk.p50} ms, p99 ${last.firstOk.p99} ms`
      : "Admission latency: not measured yet ('npm run lab:admission')",
    ...(last?.details || []).map((line) => `  ${line}`),
  );
  return lines;
}

/** LAB_ROUTES's extra Routes: how many of each termination, their names, admission and first 200s. */
function scaleLines(scale) {
  if (!scale) return [];
  const per = {};
  for (const r of scale.routes) (per[r.termination] ??= []).push(r.name);
  const each = Object.entries(per).map(
    ([t, names]) => `${t} ${names.length} (${names[0]} … ${names.at(-1)})`,
  );
  return [
    `And ${scale.count} more Routes (LAB_ROUTES), each with its own Service: ${each.join(', ')}`,
    // No admission time: the template router has none, and the real router's further Routes carry
    // an earlier router pod's (lib/lab/kube/routes-api.js admittedStatus); the Gateway's has one.
    scale.admittedMs === undefined
      ? `  each termination's last answered 200 after ${scale.servingMs} ms`
      : `  all admitted after ${scale.admittedMs} ms; each termination's last answered 200 after ${scale.servingMs} ms`,
  ];
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
    ...scaleLines(state.scaleRoutes),
    '',
    'Processes:',
    labTable([
      ['NAME', 'PID', 'HEALTH', 'CPUS'],
      ...report.processes.map((p) => [p.name, p.pid, p.health, p.cpus || 'any']),
    ]),
    '',
    report.servers.title,
    labTable([
      ['BACKEND', 'SERVER', 'STATUS'],
      ...report.servers.rows.map((s) => [s.backend, s.server, s.status]),
    ]),
    ...admissionLines(report.admission),
    '',
    ...backendOf(state.router).statusLines(state.router),
  ];
  lines.push(`Redis: ${state.redis.mode} on ${state.redis.ports.join(', ')}`);
  lines.push(`Placement: ${placementLine(state.placement)}`);
  return lines.join('\n');
}

module.exports = { formatLab, formatStatus, placementLine };
