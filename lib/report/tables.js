'use strict';
// The report's tables as data (rows of strings), so that report.md, report.html and the console
// print the same figures.
const { comparisonGroups } = require('./compare');
const { limitLabel } = require('./limits');
const { CELL_FIGURES, figureText, withTool } = require('./figures');
const { roleShares, coresOutside, THRESHOLDS } = require('../results-model/verdicts');
const { costAt } = require('../results-model/cost-curve');
const { generatorEfficiency } = require('../results-model/generator-efficiency');
const { sizeLabel, tlsEndsAt } = require('../../k6/lib/cells');
const { num, ms, pct, spreadText, roleCost, ROLE_NAMES, isHandshakeCell } = require('./format');
const { table: formatTable } = require('../core/text');

const GAP_PCT = THRESHOLDS.crossCheckGap * 100;

const costSpread = (cell, role, per = 'perRequestUs') => {
  const cost = roleCost(cell, role);
  return spreadText(cost && cost[per]);
};

/**
 * The main table: one row per cell, a column per figure of CELL_FIGURES (./figures.js), where a
 * figure is added or moved.
 */
function cellRows(results, figures = CELL_FIGURES) {
  return {
    head: figures.map((f) => f.label),
    rows: results.cells.map((c) => figures.map((f) => figureText(f, c))),
  };
}

/**
 * µs of CPU per successful request of every role (median, and min–max across samples), and the
 * router's capacity: per core, projected at the cores its threads can use, and measured where the
 * router was at its limit (the check of the projection).
 */
function costRows(results) {
  // The generators' columns: k6 and wrk always (the matrix's own), haload where it ran.
  const haload = results.cells.some((c) => c.cost?.haload);
  const roles = ['router', 'service', 'redis', 'k6', 'wrk', ...(haload ? ['haload'] : [])];
  return {
    head: [
      'cell',
      ...roles.map((role) => `${ROLE_NAMES[role]} µs/req`),
      'router capacity/core (req/s)',
      'projected at its threads (req/s)',
      'measured req/s (router at its limit)',
    ],
    rows: results.cells.map((c) => {
      const cap = c.capacity;
      return [
        c.name,
        ...roles.map((role) => costSpread(c, role)),
        cap ? num(cap.perCoreRps) : '–',
        cap ? `${num(cap.projectedRps)} on ${cap.usableCores} core(s)` : '–',
        cap && cap.measuredRps !== null ? num(cap.measuredRps) : '–',
      ];
    }),
  };
}

/** Close TLS cells: CPU per full handshake, and as a multiple of the floor timed in the same run. */
function handshakeRows(results) {
  return {
    head: [
      'cell',
      'group',
      'handshakes done by',
      'router µs/handshake',
      'data service µs/handshake',
      '× the floor (median, min–max)',
    ],
    rows: results.cells.filter(isHandshakeCell).map((c) => {
      const f = c.floorMultiple;
      return [
        c.name,
        c.tlsGroup || '–',
        ROLE_NAMES[f ? f.role : tlsEndsAt(c.termination)],
        costSpread(c, 'router', 'perHandshakeUs'),
        costSpread(c, 'service', 'perHandshakeUs'),
        f ? spreadText(f, (v) => `${v.toFixed(2)}×`) : '–',
      ];
    }),
  };
}

const pctOrDash = (v) => (v === null || v === undefined ? '–' : `${num(v)} %`);

/** Whether a cell's claim held: yes, ⚠ and why not, or – and why it was not checked. */
const heldText = (e) => (e.holds === null ? `– (${e.text})` : e.holds ? 'yes' : `⚠ ${e.text}`);

/** A row per cell carrying this evidence (tlsEvidence, protocolEvidence): its name, then `columns(cell, evidence)`. */
function evidenceRows(results, key, head, columns) {
  return {
    head: ['cell', ...head],
    rows: results.cells.filter((c) => c[key]).map((c) => [c.name, ...columns(c, c[key])]),
  };
}

/**
 * Close TLS cells: which generator made them, what the router's own counters say of their TLS
 * sessions (the check of the claim in the name), and the share of the router's CPU the full
 * handshakes take at the floor's cost.
 */
function sessionRows(results) {
  return evidenceRows(
    results,
    'tlsEvidence',
    [
      'generator',
      'full handshakes/s',
      'sessions resumed',
      'handshakes’ CPU share',
      'as claimed? (the counters of who ends the TLS)',
    ],
    (c, e) => [
      c.generator.tool,
      num(e.fullHandshakesPerSec),
      pctOrDash(e.reusePct),
      e.handshakeShare === null ? '–' : pct(e.handshakeShare, 0),
      heldText(e),
    ],
  );
}

/**
 * --cost-curve: per keep-alive cell, the router's CPU at each rate haload held it to, the fit
 * (fixed cores + µs per request, its 95 % interval, R²), the cost the generator's run measured
 * beside the curve's at that run's rate, and whether the router served the run's target rate.
 */
function costCurveRows(results) {
  return {
    head: [
      'cell',
      'req/s → router cores',
      'fixed cores',
      'µs/req (95 %)',
      'R²',
      'generator run: req/s, µs/req',
      'curve there',
      'at the target rate',
    ],
    rows: results.cells
      .filter((c) => c.costCurve)
      .map((c) => {
        const k = c.costCurve;
        if (k.skipped) return [c.name, '–', '–', '–', '–', '–', `skipped: ${k.skipped}`, '–'];
        const points = k.points.map((p) => `${num(p.rps)} → ${num(p.routerCores, 2)}`).join(', ');
        const interval = k.interval ? ` (${num(k.interval.low)}–${num(k.interval.high)})` : '';
        const measured = c.cost.router?.perRequestUs?.median ?? null;
        return [
          c.name,
          points,
          num(k.fixedCores, 3),
          `${num(k.perRequestUs)}${interval}`,
          num(k.r2, 3),
          `${num(c.okRps)}, ${num(measured)}`,
          num(costAt(k, c.okRps)),
          k.atTarget?.text ?? '–',
        ];
      }),
  };
}

/**
 * The HTTP version each TLS cell claims, what its client read and what the router received; on
 * re-encrypt h2, the version the router spoke to the service.
 */
function protocolRows(results) {
  return evidenceRows(
    results,
    'protocolEvidence',
    [
      'claimed',
      'responses of that version',
      'requests the router received in it',
      'as claimed?',
      'router to service',
    ],
    (c, e) => [e.claim, pctOrDash(e.sharePct), pctOrDash(e.routerSharePct), heldText(e), e.backend ?? '–'],
  );
}

/**
 * What resuming saves (full − resumed) beside the floor, and each beyond a plain close (http): a
 * full handshake's cost (÷ the floor) and a resumed session's own. A row per price from the cells'
 * own generators, and one more where haload drove all three runs alike.
 */
function handshakePriceRows(results) {
  const times = (v) => (v === null || v === undefined ? '–' : `${v.toFixed(2)}×`);
  const generators = (g) => (g ? [g.full, g.resumed, g.plain ?? '–'].join(', ') : '–');
  const row = (p, figures, tools) => [
    p.termination,
    sizeLabel(p.pageSize),
    ROLE_NAMES[p.role],
    tools,
    num(figures.fullUs, 1),
    num(figures.resumedUs, 1),
    // A busy host's noise can even turn the price negative: marked, as the cells are.
    `${num(figures.priceUs, 1)}${p.hostBusy ? ' ⚠ host busy' : ''}`,
    p.floorUs === null ? '–' : num(p.floorUs, 1),
    times(figures.floorMultiple),
    num(figures.plainUs ?? null, 1),
    num(figures.fullBeyondPlainUs ?? null, 1),
    times(figures.fullBeyondPlainMultiple),
    num(figures.resumedBeyondPlainUs ?? null, 1),
  ];
  return {
    head: [
      'termination',
      'page',
      'paid by',
      'driven by (full, resumed, plain)',
      'full µs/req',
      'resumed µs/req',
      'resuming saves µs',
      'floor µs',
      '× the floor',
      'plain close µs/req',
      'full beyond plain µs',
      '× the floor',
      'resumed beyond plain µs',
    ],
    rows: results.handshakePrices.flatMap((p) => [
      row(p, p, generators(p.generators)),
      ...(p.oneGenerator ? [row(p, p.oneGenerator, `${p.oneGenerator.tool} alone`)] : []),
    ]),
  };
}

/** The router's own counters per cell (medians across readings and samples). */
function routerCounterRows(results) {
  const both = (m) => (m.median === null ? '–' : `${num(m.median)} (max ${num(m.max)})`);
  return {
    head: [
      'cell',
      'new sessions/s',
      'connections (median, max)',
      'queued (median, max)',
      'TLS sessions/s',
      'full handshakes/s',
      'backend full handshakes/s',
    ],
    rows: results.cells
      .filter((c) => c.router.counters)
      .map((c) => {
        const k = c.router.counters;
        return [
          c.name,
          num(k.sessionsPerSec),
          both(k.currentConnections),
          both(k.queued),
          num(k.tlsSessionsPerSec),
          num(k.fullHandshakesPerSec),
          num(k.backendFullHandshakesPerSec),
        ];
      }),
  };
}

/** A cluster's cells: what Prometheus said of the router, and what it could not say. */
function clusterRouterRows(results) {
  const sessions = (m) => (m ? `${num(m.median)} (max ${num(m.max)})` : '–');
  return {
    head: ['cell', 'responses/s', 'connections/s', 'open connections (median, max)', 'not read'],
    rows: results.cells
      .filter((c) => 'metricsError' in c.router)
      .map((c) => {
        const p = c.router.prometheus || {};
        return [
          c.name,
          num(p.responsesPerSec ?? null),
          num(p.connectionsPerSec ?? null),
          sessions(p.currentSessions),
          c.router.metricsError || '–',
        ];
      }),
  };
}

/** Planned cells that were not run here, and why. */
function skippedRows(results) {
  return { head: ['cell', 'not run because'], rows: results.skippedCells.map((s) => [s.name, s.reason]) };
}

/** The reasons a table's figures do not show by themselves: a role at its limit, or nothing measured. */
const EVIDENCE_ROLES = ['router', 'generator', 'backend', 'unmeasured'];

/**
 * What limited each cell, with the figures the verdict rests on: the cores each role used on
 * average, the host's cores that went to other work, and how busy the host was. A shared host,
 * other work or the offered load reads from those columns; a role at its own limit, and a cell
 * with nothing measured, add their evidence in words.
 */
function limitRows(results) {
  const cores = (v) => num(v, 2);
  // A control plane apart from the router (the Gateway's istiod) gets a column where one ran.
  const controlPlane = results.cells.some((c) => 'controlPlaneCpuCores' in c.router);
  return {
    head: [
      'cell',
      'limited by',
      'router cores',
      ...(controlPlane ? ['control plane cores'] : []),
      'generator cores',
      'data service cores',
      'redis cores',
      'other work cores',
      'host busy',
      'evidence',
    ],
    rows: results.cells.map((c) => {
      const shares = roleShares(c);
      const evidence = c.limitedBy.reasons.filter((r) => EVIDENCE_ROLES.includes(r.role)).map((r) => r.text);
      return [
        c.name,
        limitLabel(c.limitedBy),
        cores(shares.router),
        ...(controlPlane ? [cores(shares['control plane'])] : []),
        withTool(c, cores(shares[c.generator.tool])),
        cores(shares['data service']),
        cores(shares.redis),
        cores(coresOutside(c)),
        c.host.busyFraction === null ? '–' : pct(c.host.busyFraction, 0),
        evidence.length ? evidence.join('; ') : '–',
      ];
    }),
  };
}

/** The sizing at the run's target: whole units per cell; '–' where a role's cost is not known. */
function sizingRows(results) {
  const cell = (v) => (v === null ? '–' : String(v));
  return {
    head: ['cell', 'router cores', 'data-service instances', 'k6 cores', 'wrk cores'],
    rows: results.sizing.cells.map((s) => [
      s.name,
      s.routerBasis === 'curve' && s.routerCores !== null ? `${s.routerCores} (curve)` : cell(s.routerCores),
      cell(s.serviceInstances),
      cell(s.k6Cores),
      cell(s.wrkCores),
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

/** The generator's shortfall against the second tool ((tool − generator) ÷ tool), or how far ahead it was. */
const shortfallText = (gap, by) =>
  gap === null ? '–' : gap < 0 ? `none (${by} ${pct(-gap, 1)} ahead)` : pct(gap, 1);

/**
 * The cells a second tool drove too (wrk on keep-alive; haload on passthrough and close): the cell's
 * generator (k6, or wrk on resumed cells) and the tool side by side, each req/s named by its tool.
 * haload prints mean latencies only, so its p99 is –.
 */
function crossCheckRows(results) {
  const cells = results.cells.filter((c) => c.crossCheck);
  return {
    head: [
      'cell',
      'generator ok req/s',
      'tool req/s',
      'tool ÷ generator',
      'generator short of tool',
      'generator p99 ms',
      'tool p99 ms',
      'generator cores',
      'tool cores',
      'note',
    ],
    rows: cells.map((c) => {
      const x = c.crossCheck;
      const by = c.generator.tool;
      const cores = num(c.generator.cpuCores, 2);
      if (x.skipped) {
        return [
          c.name,
          `${by} ${num(c.okRps)}`,
          '–',
          '–',
          '–',
          ms(c.p99),
          '–',
          cores,
          '–',
          `skipped (${x.tool}): ${x.skipped}`,
        ];
      }
      return [
        c.name,
        `${by} ${num(c.okRps)}`,
        `${x.tool} ${num(x.rps)}`,
        x.rps && c.okRps ? `${num(x.rps / (x.generatorRps ?? c.okRps), 2)}×` : '–',
        shortfallText(x.gap, by),
        ms(c.p99),
        ms(x.p99),
        cores,
        num(x.cpuCores, 2),
        x.flagged ? `over ${GAP_PCT} % apart: the tools disagree` : `agree within ${GAP_PCT} %`,
      ];
    }),
  };
}

/** A shift as "+12.0 % (+8.1 … +15.9)", its interval where the runs give one. */
function shiftText(shift) {
  if (!shift) return '–';
  const signed = (v) => `${v > 0 ? '+' : ''}${(v * 100).toFixed(1)}`;
  const interval = shift.low === null ? '' : ` (${signed(shift.low)} … ${signed(shift.high)})`;
  return `${signed(shift.change)} %${interval}`;
}

/**
 * Per cross-checked cell: each generator's own µs of CPU per request and the router's under it
 * (median and min–max over its runs), the router's shift from the cell's generator to the tool with
 * its 95 % interval, the verdict against the A/A bound, and why where the router's figure moved.
 */
function generatorEfficiencyRows(results) {
  const rows = results.cells.map(generatorEfficiency).filter(Boolean);
  return {
    head: [
      'cell',
      'generator: req/s, own µs/req',
      'router µs/req under it',
      'router shift (95 %)',
      'verdict',
      'why',
    ],
    rows: rows.flatMap((e) =>
      e.generators.map((g, i) => [
        i ? '' : e.cell,
        `${g.tool}${g.run ? ` (${g.run})` : ''}: ${num(g.rps)}, ${spreadText(g.ownUs)}`,
        spreadText(g.routerUs),
        i ? shiftText(g.shift) : '',
        i ? (g.verdict ?? '–') : '',
        i ? g.why.join('; ') : '',
      ]),
    ),
  };
}

/**
 * Per comparison group: this run's ratios to http beside each reference's. The req/s ratio carries
 * ⚠ unless it is the router's (both cells limited by the router); the capacity-per-core ratio is
 * the router's own in every cell, since it comes from the router's CPU per request. A cell whose
 * TLS sessions were not the kind its name claims is marked on its termination (the group's notes say why).
 */
function referenceRows(group) {
  return {
    head: [
      'termination',
      'this run req/s',
      'this run req/s ÷ http',
      'this run capacity/core ÷ http (the router’s)',
      ...group.columns.flatMap((col) => [`${col.short} ${col.label} ÷ http`, '→ req/s here']),
    ],
    rows: group.rows.map((row) => [
      row.run && row.run.refutedClaim ? `${row.termination} ⚠ sessions not as claimed` : row.termination,
      row.run ? `${num(row.run.rps)}${row.run.routerFigure ? '' : ' ⚠'}` : '–',
      row.run ? `${num(row.run.ratio, 2)}${row.run.routerFigure ? '' : ' ⚠'}` : '–',
      row.run ? num(row.run.capacityRatio, 2) : '–',
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
    ['HAProxy', e.haproxy && `${e.haproxy}${e.haproxyOpenssl ? ` on ${e.haproxyOpenssl}` : ''}`],
    ['Node.js', e.node],
    ['wrk', e.wrk],
  ].filter(([, version]) => version);
  if (tools.length) rows.push(['tools', tools.map(([name, version]) => `${name} ${version}`).join(', ')]);
  if (e.router) {
    // What the router's backend recorded of itself (the real router: its branch and commit).
    const which =
      (e.router.openshiftRouter ? `openshift-router ${e.router.openshiftRouter}, ` : '') +
      (e.router.envoy ? `Envoy ${e.router.envoy} configured by istiod (Istio ${e.router.istio}), ` : '');
    rows.push([
      'router',
      `${which}${e.router.threads} thread(s), maxconn ${e.router.maxconn}${e.router.maxconnRequested && e.router.maxconnRequested !== e.router.maxconn ? ` (asked ${e.router.maxconnRequested})` : ''}${e.router.passthroughBalance ? `, passthrough balance ${e.router.passthroughBalance}` : ''}${balanceOverrides(e.router.balance)}`,
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
  const tls = [
    e.router && e.router.key && `router key ${e.router.key}`,
    e.negotiatedGroup && `group ${e.negotiatedGroup}`,
    e.router && e.router.tlsGroups && tlsGroupsText(e.router.tlsGroups),
    e.alpnPolicy &&
      `ALPN ${e.alpnPolicy === 'http/1.1' ? 'http/1.1 only (OpenShift’s default: no h2)' : e.alpnPolicy}`,
    e.openshiftRelease && `OpenShift ${e.openshiftRelease}’s Intermediate profile`,
  ].filter(Boolean);
  if (tls.length) rows.push(['TLS', tls.join(', ')]);
  rows.push(['TLS trust', tlsSummary(results.tls)]);
  return { head: ['', ''], rows };
}

/** The groups the router offered, and those its OpenSSL lacked, in words. */
function tlsGroupsText({ offered, missing }) {
  if (!offered) return 'groups: HAProxy’s defaults';
  const left = missing.length ? ` (${missing.join(', ')} left out: not in the router’s OpenSSL)` : '';
  return `groups offered ${offered.join(':')}${left}`;
}

/** ' (the manifest says …; LAB_PASSTHROUGH_BALANCE overrides it)' where the run overrode a Route. */
function balanceOverrides(balance) {
  const overridden = Object.entries(balance || {}).filter(([, b]) => b.override && b.override !== b.manifest);
  return overridden
    .map(([t, b]) => ` (the ${t} Route says ${b.manifest}; LAB_PASSTHROUGH_BALANCE overrode it)`)
    .join('');
}

/** One line per cell whose client did not read the HTTP version its name claims (protocolEvidence). */
function protocolNotes(results) {
  return results.cells
    .filter((c) => c.protocolEvidence?.holds === false)
    .map((c) => `${c.name}: ${c.protocolEvidence.text}`);
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

/** The matrix as an aligned plain-text table for the console. */
function formatCellTable(results) {
  return formatTable(cellRows(results));
}

module.exports = {
  cellRows,
  costRows,
  handshakeRows,
  sessionRows,
  protocolRows,
  costCurveRows,
  handshakePriceRows,
  routerCounterRows,
  clusterRouterRows,
  skippedRows,
  limitRows,
  sizingRows,
  decompositionRows,
  crossCheckRows,
  generatorEfficiencyRows,
  protocolNotes,
  referenceRows,
  referenceTableRows,
  environmentRows,
  formatCellTable,
  comparisonGroups,
  tlsSummary,
};
