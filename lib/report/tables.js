'use strict';
// The report's tables as data (rows of strings), and as Markdown, so report.md, report.html and
// the console print the same figures.
const { comparisonGroups } = require('./compare');
const { ROLE_LABELS, limitLabel } = require('./limits');

const num = (v, digits = 0) =>
  v === null || v === undefined || Number.isNaN(v) ? '–' : Number(v).toFixed(digits);
const ms = (v) =>
  v === null || v === undefined ? '–' : v < 10 ? Number(v).toFixed(2) : Number(v).toFixed(1);
const pct = (v, digits = 2) => (v === null || v === undefined ? '–' : `${(v * 100).toFixed(digits)} %`);

/** The main table: one row per cell. */
function cellRows(results) {
  return {
    head: [
      'cell',
      'ok req/s',
      'p50 ms',
      'p90 ms',
      'p99 ms',
      'max ms',
      'errors',
      'TLS ms per handshake',
      'service p50 ms',
      'k6 cores',
      'router cores',
      'limited by',
    ],
    rows: results.cells.map((c) => [
      c.name,
      num(c.okRps),
      ms(c.p50),
      ms(c.p90),
      ms(c.p99),
      ms(c.max),
      c.errorRate ? pct(c.errorRate) : '0',
      ms(c.tlsHandshakeMs),
      ms(c.serviceTimeMs && c.serviceTimeMs.p50),
      num(c.generator.k6CpuCores, 2),
      num(c.router.cpuCores, 2),
      limitLabel(c.limitedBy),
    ]),
  };
}

/** Where the time goes, per cell (p50 of successful requests). */
function decompositionRows(results) {
  return {
    head: [
      'cell',
      'end to end p50',
      'connect p50',
      'TLS handshake p50',
      'waiting p50',
      'service p50',
      'router + network p50',
    ],
    rows: results.cells.map((c) => {
      const d = c.decomposition;
      const get = (m) => (m ? m.p50 : null);
      return [
        c.name,
        ms(c.p50),
        ms(get(d.connectMs)),
        ms(get(d.tlsHandshakeMs)),
        ms(get(d.waitingMs)),
        ms(get(d.serviceMs)),
        // Its own per-request distribution (waiting − service of each request): a difference of
        // two p50s is not a p50. A cell whose requests reported no service time has none.
        ms(get(d.routerMs)),
      ];
    }),
  };
}

/** Every reason of every cell's limitedBy, one row each. */
function saturationRows(results) {
  const rows = results.cells.flatMap((c) =>
    c.limitedBy.reasons.map((r) => [c.name, ROLE_LABELS[r.role], r.text]),
  );
  return { head: ['cell', 'limited by', 'why'], rows };
}

function crossCheckRows(results) {
  const cells = results.cells.filter((c) => c.crossCheck);
  return {
    head: [
      'cell',
      'k6 ok req/s',
      'wrk req/s',
      'gap',
      'k6 p99 ms',
      'wrk p99 ms',
      'k6 cores',
      'wrk cores',
      'note',
    ],
    rows: cells.map((c) => {
      const x = c.crossCheck;
      if (x.skipped)
        return [
          c.name,
          num(c.okRps),
          '–',
          '–',
          ms(c.p99),
          '–',
          num(c.generator.k6CpuCores, 2),
          '–',
          `skipped: ${x.skipped}`,
        ];
      return [
        c.name,
        num(c.okRps),
        num(x.rps),
        x.gap === null ? '–' : pct(x.gap, 1),
        ms(c.p99),
        ms(x.p99),
        num(c.generator.k6CpuCores, 2),
        num(x.wrkCpuCores, 2),
        x.flagged ? 'gap over 10 %: the tools disagree' : 'agree within 10 %',
      ];
    }),
  };
}

/** Per comparison group: this run's ratio to http beside each reference's. */
function referenceRows(group) {
  return {
    head: [
      'termination',
      'this run req/s',
      'this run ÷ http',
      ...group.columns.flatMap((col) => [`${col.short} ${col.label} ÷ http`, '→ req/s here']),
    ],
    rows: group.rows.map((row) => [
      row.termination,
      row.run ? `${num(row.run.rps)}${row.run.routerFigure ? '' : ' ⚠'}` : '–',
      row.run ? num(row.run.ratio, 2) : '–',
      ...row.refs.flatMap((ref) => [num(ref.ratio, 2), num(ref.normalisedRps)]),
    ]),
  };
}

function referenceTableRows(table) {
  return {
    head: ['termination', ...table.columns.map((c) => c.label)],
    rows: Object.entries(table.rows).map(([t, row]) => [t, ...table.columns.map((c) => String(row[c.key]))]),
  };
}

function environmentRows(results) {
  const e = results.environment;
  const o = results.options;
  const rows = [
    ['load', o.rate ? `open model, ${o.rate} req/s (max ${o.maxVus} VUs)` : `closed model, ${o.vus} VUs`],
    [
      'samples',
      `${o.samples} × ${o.durationSeconds}s per cell, ${o.warmupSeconds}s warm-up, ${o.cooldownSeconds}s cool-down`,
    ],
    ['target', `${e.target}${e.appsDomain ? ` (${e.appsDomain}, namespace ${e.namespace})` : ''}`],
  ];
  // An in-cluster run records no machine or tool versions: its k6 ran in runner pods.
  const runners = results.cells.find((c) => c.combine === 'concurrent');
  if (runners) rows.push(['k6', `${runners.samples} runners side by side in the cluster (k6-operator)`]);
  if (e.cores !== null) {
    rows.push([
      'machine',
      `${e.cores} cores (${e.cpuModel || 'unknown CPU'}), ${e.memoryGiB} GiB, ${e.platform}`,
    ]);
  }
  const tools = [
    ['k6', e.k6],
    ['HAProxy', e.haproxy],
    ['Node.js', e.node],
    ['wrk', e.wrk],
  ].filter(([, version]) => version);
  if (tools.length) rows.push(['tools', tools.map(([name, version]) => `${name} ${version}`).join(', ')]);
  if (e.router) {
    rows.push([
      'router',
      `${e.router.threads} thread(s), maxconn ${e.router.maxconn}${e.router.maxconnRequested && e.router.maxconnRequested !== e.router.maxconn ? ` (asked ${e.router.maxconnRequested})` : ''}, passthrough balance ${e.router.passthroughBalance || '?'}`,
    ]);
    rows.push(['backend', `${e.replicas} data-service instance(s), Redis ${e.redis}`]);
    const p = e.placement || {};
    rows.push([
      'placement',
      p.router || p.service || p.redis
        ? `router ${p.router || 'any'}, service ${p.service || 'any'}, redis ${p.redis || 'any'}, k6 ${e.k6Cpus || 'any'}`
        : 'not pinned: k6, the router and the service share every core',
    ]);
  }
  if (e.kernel)
    rows.push([
      'kernel',
      `ephemeral ports ${e.kernel.ephemeralPorts}, tcp_tw_reuse ${e.kernel.tcpTwReuse}, somaxconn ${e.kernel.somaxconn}`,
    ]);
  rows.push(['TLS trust', tlsSummary(results.tls)]);
  return { head: ['', ''], rows };
}

/** The tls block in words: which routes skipped verification comes from the block, never assumed. */
function tlsSummary(tls) {
  const skipped = !tls.skipped.length
    ? 'every HTTPS route verified'
    : !tls.verified.length
      ? `verification skipped on every route (${tls.skipped.join(', ')})`
      : `verification skipped for ${tls.skipped.join(', ')} only`;
  return `${tls.trust}; ${skipped} (${tls.why})`;
}

function markdownTable({ head, rows }) {
  const escape = (s) => String(s).replace(/\|/g, '\\|');
  const lines = [`| ${head.map(escape).join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.map(escape).join(' | ')} |`);
  return lines.join('\n');
}

/** The matrix as an aligned plain-text table for the console. */
function formatCellTable(results) {
  const { head, rows } = cellRows(results);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

module.exports = {
  cellRows,
  decompositionRows,
  saturationRows,
  crossCheckRows,
  referenceRows,
  referenceTableRows,
  environmentRows,
  markdownTable,
  formatCellTable,
  comparisonGroups,
  tlsSummary,
};
