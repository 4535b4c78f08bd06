'use strict';
// The sections of report.md and report.html, declared once, in order, as format-neutral blocks:
// markdown.js and html.js only know how to render a block, so a section is added here, once.
const t = require('./tables');
const { rpsChart, latencyChart, costCharts, ratioChart } = require('./charts');
const { isRouterFigure, isUnmeasured } = require('./limits');
const { routerFigures, limitGroups } = require('./headline');
const { floorText } = require('./format');
const words = require('./words');

/*
 * A block is one of:
 *   { heading, level }                 a heading below the section's own (level 1 or 3)
 *   { paragraph: spans, muted }        muted: grey in HTML
 *   { list: [spans], aside }           aside: the conditions' style in HTML
 *   { table: { head, rows }, shade, wrap }   shade: rows (HTML) whose req/s is not the router's;
 *                                      wrap: columns of sentences (markup.js htmlTable)
 *   { box: 'alert' | 'lead' | 'ok', text: spans }    a callout: a quote in Markdown
 *   { box, blocks: [block] }           a callout of blocks: Markdown quotes the first, a headline
 *   { chart: () => svg }               a chart, drawn in HTML only
 * and spans are a string or a list of: text | { strong } | { code } | { aside } | { link, text }.
 * A block or a span with `only: 'markdown' | 'html'` is that format's alone: what the other says
 * otherwise (HTML's boxes and shaded rows; Markdown's sentence for them).
 */

/** The indexes of the rows to shade: cells whose req/s is not the router's own limit. */
const limitedRows = (results) =>
  results.cells.map((c, i) => (isRouterFigure(c) ? -1 : i)).filter((i) => i >= 0);
const SHADED = { only: 'html', text: ' Shaded rows: the req/s is not the router’s own limit.' };

/** The run's title, whether it finished, and how to read its figures. */
function runBlocks(results) {
  const interrupted = [{ strong: 'This run was interrupted:' }, ' only the cells below finished.'];
  return [
    { heading: `Router matrix ${results.id}`, level: 1 },
    ...(results.complete ? [] : [{ box: 'alert', text: interrupted }]),
    {
      paragraph: `${results.cells.length} cell(s), ${results.environment.target} target, measured ${results.startedAt}. ${words.INTRO_TEXT}`,
      muted: true,
    },
  ];
}

/** The router's own figures first, then whether the cells' req/s are its own. */
function leadBlocks(results) {
  const figures = routerFigures(results);
  const lead = figures
    ? [
        { paragraph: [{ strong: figures.lead.join(' ') }] },
        { table: figures.table },
        ...(figures.floor ? [{ paragraph: figures.floor, muted: true }] : []),
      ]
    : [{ paragraph: 'The router’s CPU was not measured in this run: no cost per request or capacity.' }];
  const saturated = results.cells.filter((c) => !isRouterFigure(c) && !isUnmeasured(c));
  // HTML says it in the limits' box and the shaded rows.
  const saturation = saturated.length && {
    only: 'markdown',
    box: 'alert',
    text: [
      { strong: `${saturated.length} of ${results.cells.length} cells were not limited by the router.` },
      ' Their req/s is what the load generator, the data service, a shared host or the offered load allowed, ' +
        'not what the router can: read it as a lower bound for the router.' +
        (figures ? ' Its µs per request is its own all the same.' : ''),
    ],
  };
  return [{ box: 'lead', blocks: lead }, ...(saturation ? [saturation] : [])];
}

/** What the reader must discount: another HTTP version than claimed, a host busy with other work. */
function alertBlocks(results) {
  const out = [];
  const notHttp11 = t.protocolNotes(results);
  if (notHttp11.length) {
    out.push({
      box: 'alert',
      text: [
        { strong: `${notHttp11.length} cell(s) did not run over the HTTP version their name claims` },
        `: ${notHttp11.join('; ')}.`,
      ],
    });
  }
  const contended = results.cells.filter((c) => c.limitedBy.hostBusy);
  if (contended.length) {
    const names =
      contended.length < results.cells.length ? ` (${contended.map((c) => c.name).join(', ')})` : '';
    out.push({
      box: 'alert',
      text: [
        { strong: `The host was busy with other work during ${words.countText(contended, results)}` },
        { only: 'html', text: names },
        ': their figures are lower and noisier than this machine can do.',
      ],
    });
  }
  return out;
}

/** A sentence per verdict that occurs, then the figures, a row per cell. */
function limitsBlocks(results) {
  const groups = limitGroups(results);
  // In HTML's box the router's own limits come last: the other verdicts are what to discount.
  const ordered = [...groups.filter((g) => g.key !== 'router'), ...groups.filter((g) => g.key === 'router')];
  const limited = limitedRows(results);
  const box = limited.length
    ? { box: 'alert', blocks: ordered.map((g) => ({ paragraph: [{ strong: g.title }] })) }
    : { box: 'ok', text: 'Every cell was limited by the router: each req/s is the router’s own.' };
  return [
    { only: 'markdown', list: groups.map((g) => g.title) },
    { only: 'html', ...box },
    { table: t.limitRows(results), shade: limited, wrap: [-1] },
    { paragraph: [words.LIMITS_TEXT, SHADED], muted: true },
  ];
}

/** The charts and the main table, a row per cell. */
function resultsBlocks(results) {
  const dashboards = results.cells.flatMap((c) => (c.dashboards || []).map((file) => [c.name, file]));
  return [
    ...costCharts(results).map((svg) => ({ chart: () => svg })),
    { chart: () => rpsChart(results) },
    { chart: () => latencyChart(results) },
    { table: t.cellRows(results), shade: limitedRows(results), wrap: [-1] },
    { paragraph: [words.RESULTS_NOTE, SHADED], muted: true },
    // The dashboards are files beside report.html: a link that a pasted report.md would break.
    ...(dashboards.length
      ? [
          { only: 'html', heading: 'k6 web dashboards', level: 3 },
          {
            only: 'html',
            list: dashboards.map(([name, file]) => [{ link: file, text: `${name}: ${file}` }]),
          },
        ]
      : []),
  ];
}

const COST_TEXT =
  'µs of CPU per successful request of each role: median, and min–max across the samples where they differ; wrk and ' +
  'haload only for the cells they ran. The router’s capacity per core is 1 s ÷ its median cost; the projection multiplies ' +
  'it by the cores its threads can use; where the router was at its own limit, the measured req/s stands beside it as ' +
  'the check.';

/** A sub-table of the cost section when it has rows: its heading, what it says, the table. */
const subTable = (title, text, table, options = {}) =>
  table.rows.length ? [{ heading: title, level: 3 }, { paragraph: text }, { table, ...options }] : [];

/** Cost per request of every role, the router's capacity, and close TLS cells against the floor. */
function costBlocks(results) {
  const bases = [...new Set(results.cells.filter((c) => c.capacity).map((c) => c.capacity.basis))];
  const floor = results.handshakeFloor
    ? `The floor: ${floorText(results.handshakeFloor)}. A multiple of 1× would be the cryptography alone.`
    : 'The handshake floor was not measured in this run: no multiple of it.';
  return [
    { paragraph: COST_TEXT },
    { table: t.costRows(results) },
    ...bases.map((basis) => ({ paragraph: [{ strong: 'Assumption:' }, ` ${basis}.`] })),
    ...subTable(
      'Full handshakes (close TLS cells)',
      `${floor} Passthrough’s handshakes happen at the data service, so its multiple is the service’s.`,
      t.handshakeRows(results),
    ),
    ...subTable(
      'TLS sessions at the router, or the service (close TLS cells)',
      words.SESSIONS_TEXT,
      t.sessionRows(results),
      {
        wrap: [-1],
      },
    ),
    ...subTable(
      'What resuming saves, and a handshake beyond a plain close',
      words.PRICE_TEXT,
      t.handshakePriceRows(results),
    ),
    ...subTable('HTTP versions (cells through a TLS route)', words.PROTOCOL_TEXT, t.protocolRows(results)),
    ...subTable('The router’s cost by rate (--cost-curve)', words.COST_CURVE_TEXT, t.costCurveRows(results)),
    ...subTable('The router’s own counters', words.COUNTERS_TEXT, t.routerCounterRows(results)),
    ...subTable('The router from Prometheus', words.CLUSTER_TEXT, t.clusterRouterRows(results)),
  ];
}

/** How many router cores, service instances and generator cores the run's target TPS needs. */
function sizingBlocks(results) {
  const sizing = results.sizing;
  if (!sizing) return [{ paragraph: 'No sizing: the run was not finalized.' }];
  return [
    {
      paragraph:
        `What proving ${sizing.tps} successful requests per second would take, per cell, from this run’s median costs with ` +
        `${Math.round(sizing.headroom * 100)} % headroom. – : the role’s cost was not measured; wrk’s cost is known only ` +
        'for the cells it cross-checked.',
    },
    { table: t.sizingRows(results) },
    { paragraph: [{ strong: 'Assumptions:' }] },
    { list: sizing.assumptions },
    { paragraph: ['For another target: ', { code: 'npm run sizing -- <results dir> --tps N' }] },
  ];
}

/** This run's ratios to http beside Red Hat's, a chart per group, then the reference tables. */
function comparisonBlocks(results) {
  const out = [
    { paragraph: words.COMPARISON_TEXT },
    {
      paragraph: [
        { strong: 'Which ratio is the router’s:' },
        ` ${words.RATIO_TEXT}`,
        { only: 'html', text: ', and so does hatching in the charts' },
        '.',
      ],
    },
  ];
  for (const group of t.comparisonGroups(results)) {
    const conditions = [...new Map(group.columns.map((c) => [c.tableId, c])).values()];
    out.push(
      { heading: group.title, level: 3 },
      { chart: () => ratioChart(group) },
      // Markdown names the conditions once, beside the reference tables below.
      {
        list: [
          ...conditions.map((c) => ({ only: 'html', text: `${c.title}: ${c.conditions}` })),
          ...group.notes,
        ],
        aside: true,
      },
      { table: t.referenceRows(group) },
    );
  }
  out.push({ heading: 'The reference tables (req/s)', level: 3 });
  for (const table of results.reference.tables) {
    out.push(
      { paragraph: [{ strong: table.title }, ' ', { aside: `— ${table.conditions}` }, '.'] },
      { table: t.referenceTableRows(table) },
    );
  }
  const bank = results.reference.bank;
  out.push({
    paragraph: [
      { strong: bank.title },
      ' ',
      { aside: `— ${bank.conditions}` },
      `: target ${bank.targetTps} TPS, service time about ${bank.serviceTimeMs} ms, end to end ` +
        `${bank.endToEndMs.min}–${bank.endToEndMs.max} ms; ${bank.finding}.`,
    ],
  });
  return out;
}

const always = () => true;

/**
 * The report, in order: { id, title, anchor, applies, blocks }. `title` (text, or of the run)
 * heads the section at level 2, `anchor` is its HTML id; a section without a title continues the
 * one before. `others` marks where the sections of the directory's other documents (reliability,
 * route scale) go, rendered by their own modules.
 */
const SECTIONS = [
  { id: 'run', applies: always, blocks: runBlocks },
  { id: 'lead', applies: always, blocks: leadBlocks },
  { id: 'alerts', applies: always, blocks: alertBlocks },
  { id: 'limits', title: words.LIMITS_TITLE, anchor: 'limits', applies: always, blocks: limitsBlocks },
  { id: 'results', title: 'Results', applies: always, blocks: resultsBlocks },
  {
    id: 'skipped',
    title: 'Cells not run',
    applies: (r) => r.skippedCells.length > 0,
    blocks: (r) => [{ paragraph: words.SKIPPED_TEXT }, { table: t.skippedRows(r), wrap: [-1] }],
  },
  { id: 'cost', title: 'Cost and capacity', applies: always, blocks: costBlocks },
  {
    id: 'time',
    title: 'Where the time goes (p50, ms)',
    applies: always,
    blocks: (r) => [{ paragraph: words.TIME_TEXT }, { table: t.decompositionRows(r) }],
  },
  {
    id: 'cross-check',
    title: 'Cross-check: the second generator',
    applies: (r) => r.cells.some((c) => c.crossCheck),
    blocks: (r) => [
      { table: t.crossCheckRows(r), wrap: [-1] },
      ...subTable(
        'The generators’ own cost, and the router’s under each',
        words.EFFICIENCY_TEXT,
        t.generatorEfficiencyRows(r),
        {
          wrap: [-1],
        },
      ),
    ],
  },
  {
    id: 'sizing',
    title: (r) => (r.sizing ? `Sizing for ${r.sizing.tps} TPS` : 'Sizing'),
    applies: always,
    blocks: sizingBlocks,
  },
  { id: 'comparison', title: 'Compared with Red Hat’s figures', applies: always, blocks: comparisonBlocks },
  { id: 'others', others: true, applies: always, blocks: () => [] },
  {
    id: 'environment',
    title: 'Environment',
    applies: always,
    blocks: (r) => [{ table: t.environmentRows(r), wrap: [-1] }],
  },
];

/** The blocks a format renders: those of the other format left out, spans included. */
function forFormat(blocks, format) {
  const mine = (x) => !x || typeof x !== 'object' || !x.only || x.only === format;
  const spans = (s) => (Array.isArray(s) ? s.filter(mine) : s);
  return blocks.filter(mine).map((b) => ({
    ...b,
    ...(b.paragraph !== undefined && { paragraph: spans(b.paragraph) }),
    ...(b.text !== undefined && { text: spans(b.text) }),
    ...(b.list && { list: b.list.filter(mine).map(spans) }),
    ...(b.blocks && { blocks: forFormat(b.blocks, format) }),
  }));
}

/**
 * The sections of `results` that apply, in order, for `format`: [{ id, title, anchor, others,
 * blocks }], the title a string or null.
 */
function layOut(results, format, sections = SECTIONS) {
  return sections
    .filter((s) => s.applies(results))
    .map((s) => ({
      id: s.id,
      title: typeof s.title === 'function' ? s.title(results) : s.title || null,
      anchor: s.anchor || null,
      others: Boolean(s.others),
      blocks: forFormat(s.blocks(results), format),
    }));
}

module.exports = { SECTIONS, layOut };
