'use strict';
// route-scale.md and route-scale.html from route-scale.json: the same blocks (a heading, a text,
// a table) rendered twice, and a shorter section of them in the matrix report when both share a
// results directory.
const fs = require('node:fs');
const path = require('node:path');
const { htmlProse, markdownTable, htmlTable, htmlHeading, htmlPage } = require('./markup');

const MD_FILE = 'route-scale.md';
const HTML_FILE = 'route-scale.html';

const missing = (v) => v === null || v === undefined;
const ms = (v) => (missing(v) ? '–' : `${Math.round(v)} ms`);
const medMax = (s) => (s ? `${ms(s.median)} (max ${ms(s.max)})` : '–');
const mb = (v) => (missing(v) ? '–' : `${v} MB`);

/** The old HAProxys of a count's reloads: "3, 14 MB each at most, lived 10.0 s". */
function oldText(haproxy) {
  if (!haproxy.old.length) return 'none';
  const peak = Math.max(...haproxy.old.map((o) => o.peakMb));
  const lived = haproxy.old.filter((o) => o.gone).map((o) => o.livedMs);
  const livedText = lived.length
    ? `lived ${(Math.max(...lived) / 1000).toFixed(1)} s at most`
    : 'none exited';
  const running = haproxy.oldStillRunning ? `, ${haproxy.oldStillRunning} still running` : '';
  return `${haproxy.old.length}, up to ${peak} MB each, ${livedText}${running}`;
}

/** "drain: the old HAProxy lived …; of its own work, parse (61 ms)". */
function boundText(v) {
  const work =
    v.work && v.by !== v.work.by ? `; of the reload's own work, ${v.work.by} (${ms(v.work.ms)})` : '';
  return `${v.by}: ${v.reason}${work}`;
}

const costOf = (entry, cell) => {
  const c = entry.cost?.cells.find((x) => x.cell === cell);
  return c?.routerUs ? `${Math.round(c.routerUs.median)} µs (${c.limitedBy})` : '–';
};

function reloadRows(doc) {
  return doc.counts.map((e) => {
    const r = e.reloads;
    return [
      String(e.routes),
      medMax(r?.renderMs),
      ms(r?.parseMs),
      medMax(r?.reloadMs),
      medMax(r?.changeToServingMs),
      mb(r?.haproxy.servingMb),
      r ? oldText(r.haproxy) : '–',
      mb(r?.haproxy.peakTotalMb),
      e.verdicts.reload ? boundText(e.verdicts.reload) : '–',
    ];
  });
}

function scaleRows(doc) {
  return doc.counts.map((e) => [
    String(e.routes),
    e.admission ? `${ms(e.admission.admitted.p50)} / ${ms(e.admission.firstOk.p50)}` : '–',
    e.admission ? ms(e.admission.firstOk.max) : '–',
    costOf(e, 'http:1k:keepalive'),
    costOf(e, 'edge:1k:keepalive'),
    e.verdicts.host.busy ? `busy: ${e.verdicts.host.reasons.join('; ')}` : 'not busy',
  ]);
}

function churnRows(doc) {
  return doc.counts.flatMap((e) => {
    const cases = e.churn?.cases || [];
    const baseline = cases.find((c) => c.ratePerS === 0);
    return cases.map((c) => {
      const p99 = c.loads.map((l) => {
        const base = baseline?.loads.find((b) => b.termination === l.termination)?.p99;
        const ratio = c.ratePerS && base ? ` (×${(l.p99 / base).toFixed(2)})` : '';
        return `${l.termination} ${l.p99} ms${ratio}`;
      });
      const failed = c.loads.reduce((sum, l) => sum + l.failed, 0);
      const requests = c.loads.reduce((sum, l) => sum + l.requests, 0);
      return [
        String(e.routes),
        c.ratePerS ? `${c.ratePerS}/s` : 'none',
        `${c.reloads} (${c.reloadsPerSec}/s)`,
        `${failed} of ${requests}`,
        p99.join(', '),
        String(c.haproxy.peakProcesses),
      ];
    });
  });
}

const KINDS = { rollout: 'new pod', readiness: 'same pod' };

/** One row of endpoint changes: a count, the manager off or on, one kind of change. */
function endpointRow(routes, dcm, kind, x) {
  return [
    routes,
    dcm,
    KINDS[kind],
    `${x.reloads} for ${x.changes} change(s)` +
      (x.fallbacks ? `; ${x.fallbacks} left to a reload: ${x.fallbackReason}` : ''),
    ms(x.removedMs?.median),
    ms(x.addedMs?.median),
    `${x.failed} of ${x.requests}` +
      x.notApplied.map((n) => `; change ${n.change} not applied: ${n.error}`).join(''),
  ];
}

function endpointRows(doc) {
  return doc.counts.flatMap((e) =>
    ['off', 'on']
      .map((dcm) => [dcm, e.endpoints?.[dcm]])
      .filter(([, x]) => x)
      .flatMap(([dcm, x]) =>
        x.skipped
          ? [[String(e.routes), dcm, '', x.skipped, '', '', '']]
          : Object.keys(KINDS).map((kind) => endpointRow(String(e.routes), dcm, kind, x[kind])),
      ),
  );
}

const CHURN_TEXT =
  'Routes created through the API, each deleted a tick later, while the steady load runs through the ' +
  'existing Routes; "none" is the same load without churn. The router batches changes into at most one ' +
  'reload per reload interval, so reloads per second stay bounded whatever the churn rate.';

const ENDPOINT_TEXT =
  'One instance withdrawn from its Services and published again while requests poll the http Route: back ' +
  'as a new pod (a rollout) or as the same pod (a readiness probe that failed, then passed). With the ' +
  'dynamic configuration manager a new pod is added at runtime. The same pod cannot be: HAProxy keeps the ' +
  'server the configuration file named, so the router falls back to a reload, and its record of the ' +
  "Service's other Routes can go stale: later withdrawals never reach them (docs/figures.md#the-configuration-manager-and-a-pod-that-returns).";

/** The run's blocks: { heading } | { text } | { table, right? }. */
function blocks(doc) {
  const r = doc.router || {};
  // Written after each count: a run still going is not an interrupted one.
  const state = !doc.finishedAt ? 'in progress' : doc.complete ? null : 'interrupted';
  const verdict = state ?? (doc.pass ? 'no request lost to churn' : 'requests lost to churn');
  return [
    { heading: `Route scale ${doc.runId}: ${verdict}` },
    {
      text:
        `openshift-router ${r.openshiftRouter ?? '?'} on HAProxy ${r.haproxy ?? '?'} (${r.openssl ?? '?'}), ` +
        `${r.threads ?? '?'} thread(s), reload interval ${r.reloadIntervalS ?? '?'} s, hard-stop-after ` +
        `${r.hardStopAfterS ?? '?'} s. Steady load: ${doc.options.rate} req/s through each of http, edge and ` +
        `passthrough, keep-alive. Started ${doc.startedAt}${state ? ` (${state}: the counts below finished)` : ''}.`,
    },
    { subheading: 'Reloads and memory' },
    {
      text:
        'Each reload is one Route change. Render and reload are the router’s own figures (template_router_*), ' +
        'parse is the least CPU time of five `haproxy -c` on the same configuration, "change → serving" runs from the API call to the new ' +
        'HAProxy. Old HAProxys are those a reload left finishing their connections.',
    },
    {
      table: {
        head: [
          'Routes',
          'render',
          'parse',
          'reload',
          'change → serving',
          'serving HAProxy',
          'old HAProxys',
          'HAProxy peak',
          'what bounded a reload',
        ],
        rows: reloadRows(doc),
      },
      wrap: [6, 8],
    },
    { subheading: 'Admission, per-request cost and the host' },
    {
      table: {
        head: [
          'Routes',
          'admitted / first 200 (p50)',
          'first 200 max',
          'router µs/req http 1k ka',
          'router µs/req edge 1k ka',
          'host',
        ],
        rows: scaleRows(doc),
      },
      wrap: [5],
    },
    { subheading: 'Route churn under load' },
    { text: CHURN_TEXT },
    {
      table: {
        head: ['Routes', 'churn', 'reloads', 'failed', 'p99 (× no churn)', 'HAProxys at once'],
        rows: churnRows(doc),
      },
      wrap: [4],
    },
    { subheading: 'Endpoint changes: the dynamic configuration manager off and on' },
    { text: ENDPOINT_TEXT },
    {
      table: {
        head: ['Routes', 'DCM', 'back as', 'reloads', 'traffic left the endpoint', 'traffic back', 'failed'],
        rows: endpointRows(doc),
      },
      wrap: [3, 6],
    },
  ];
}

function markdownOf(list, level) {
  return list.map((b) => {
    if (b.heading) return `${'#'.repeat(level)} ${b.heading}`;
    if (b.subheading) return `${'#'.repeat(level + 1)} ${b.subheading}`;
    if (b.text) return b.text;
    return markdownTable(b.table);
  });
}

function htmlOf(list, level) {
  return list.map((b) => {
    if (b.heading) return htmlHeading(level, b.heading, level === 2 ? { id: 'route-scale' } : {});
    if (b.subheading) return htmlHeading(level + 1, b.subheading);
    if (b.text) return `<p>${htmlProse(b.text)}</p>`;
    return htmlTable(b.table, { wrap: b.wrap || [] });
  });
}

function writeReports(dir, doc) {
  fs.writeFileSync(path.join(dir, MD_FILE), `${markdownOf(blocks(doc), 1).join('\n\n')}\n`);
  fs.writeFileSync(path.join(dir, HTML_FILE), htmlPage(`Route scale ${doc.runId}`, htmlOf(blocks(doc), 1)));
}

/** The matrix report's sections: the same blocks one level down, with where the files are. */
const markdownSection = (doc) => [
  ...markdownOf(blocks(doc), 2).flatMap((line) => [line, '']),
  `From [${MD_FILE}](${MD_FILE}) in this directory.`,
  '',
];
const htmlSection = (doc) => [
  ...htmlOf(blocks(doc), 2),
  `<p>From <a href="${HTML_FILE}">${HTML_FILE}</a> in this directory.</p>`,
];

module.exports = { MD_FILE, HTML_FILE, writeReports, markdownSection, htmlSection, blocks };
