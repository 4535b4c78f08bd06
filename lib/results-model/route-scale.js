'use strict';
// route-scale.json, one run of `npm run route-scale`: per Route count the figures of each phase
// and the verdicts drawn from them (what bounded a reload, a busy host, requests lost to churn).
// Written after every count, so an interrupted run keeps what finished (complete: false).
const { THRESHOLDS } = require('./verdicts');
const { documentFile } = require('./document');
const FILE = documentFile('route-scale');
const JSON_FILE = FILE.fileName;
const VERSION = FILE.version;
const { check: checkDocument, write: writeDocument, read: readDocument } = FILE;

/** A new run's document: its options and the router every count runs. */
function createDocument({ runId, opts, router }) {
  return {
    version: VERSION,
    runId,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    complete: false,
    options: opts,
    router,
    counts: [],
  };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * What bounded a reload, from until the new HAProxy serves to until the old one is gone: the
 * largest of its phases. render: the router writing the configuration; parse: HAProxy reading it
 * (`haproxy -c`); start: the rest of reload-haproxy (the new process binding, taking the sockets
 * over, the health check); drain: the old process finishing its connections. Pure.
 */
function reloadBound({ renderMs, reloadMs, parseMs, haproxy }, { hardStopAfterS }) {
  const lived = haproxy.old.filter((o) => o.gone).map((o) => o.livedMs);
  const drainMs = lived.length ? lived.sort((a, b) => a - b)[lived.length >> 1] : null;
  const phases = {
    render: renderMs?.median ?? null,
    parse: parseMs,
    start: reloadMs && parseMs !== null ? Math.max(0, reloadMs.median - parseMs) : null,
    drain: drainMs,
  };
  const known = Object.entries(phases).filter(([, v]) => v !== null);
  if (!known.length) return { by: 'unknown', phases, reason: 'no reload was measured' };
  const [by] = known.sort((a, b) => b[1] - a[1])[0];
  // The reload's own work, whatever held the old process: what grows with the Route count.
  const work = known.filter(([phase]) => phase !== 'drain')[0] ?? null;
  const stoppedByHardStop = drainMs !== null && hardStopAfterS && drainMs >= hardStopAfterS * 1000 - 500;
  const why = {
    render: `the router took ${phases.render} ms to write the configuration`,
    parse: `HAProxy took ${phases.parse} ms to parse the configuration`,
    start: `the new HAProxy took ${phases.start} ms beyond parsing to take over and pass the health check`,
    drain:
      `the old HAProxy lived ${seconds(drainMs ?? 0)} after the reload` +
      (stoppedByHardStop
        ? `, until hard-stop-after (${hardStopAfterS} s) stopped it: connections held it`
        : ', until its connections closed'),
  };
  return { by, phases, reason: why[by], work: work ? { by: work[0], ms: work[1] } : null };
}

/** Whether the host was busy in any phase of a count (≥ THRESHOLDS.hostBusy of its cores). Pure. */
function hostBusyVerdict(entry) {
  const phases = [
    ['reloads', entry.reloads?.host],
    ...(entry.churn?.cases || []).map((c) => [`churn ${c.ratePerS}/s`, c.host]),
  ];
  const reasons = phases
    .filter(([, host]) => host && host.busyFraction !== null && host.busyFraction >= THRESHOLDS.hostBusy)
    .map(
      ([phase, host]) =>
        `${phase}: the host's ${host.cores} cores were ${Math.round(host.busyFraction * 100)} % busy ` +
        `(the router ${host.routerCores} cores): changes were applied on a busy machine`,
    );
  for (const cell of entry.cost?.cells || []) {
    if (cell.hostBusy) reasons.push(`${cell.cell}: ${cell.limitReason}`);
  }
  return { busy: reasons.length > 0, reasons };
}

/** Requests the steady load lost while Routes churned (the baseline left out). Pure. */
function churnVerdict(churn) {
  const reasons = [];
  for (const c of (churn?.cases || []).filter((x) => x.ratePerS > 0)) {
    for (const load of c.loads.filter((l) => l.failed > 0)) {
      const kinds = Object.entries(load.errorKinds).map(([k, n]) => `${n} ${k}`);
      reasons.push(
        `${c.ratePerS} Route(s)/s: ${load.failed} of ${load.requests} requests through ${load.termination} failed (${kinds.join(', ')})`,
      );
    }
  }
  return { pass: reasons.length === 0, reasons };
}

/** Adds one count's figures with its verdicts. */
function addCount(doc, entry) {
  const withVerdicts = {
    ...entry,
    verdicts: {
      reload: entry.reloads ? reloadBound(entry.reloads, doc.options) : null,
      host: hostBusyVerdict(entry),
      churn: churnVerdict(entry.churn),
    },
  };
  doc.counts.push(withVerdicts);
  return withVerdicts;
}

function finish(doc, { complete }) {
  doc.finishedAt = new Date().toISOString();
  doc.complete = complete;
  doc.pass = complete && doc.counts.every((c) => c.verdicts.churn.pass);
  return doc;
}

module.exports = {
  VERSION,
  JSON_FILE,
  createDocument,
  addCount,
  finish,
  writeDocument,
  readDocument,
  reloadBound,
  hostBusyVerdict,
  churnVerdict,
  checkDocument,
};
