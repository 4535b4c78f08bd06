'use strict';
// report.md: the run as Markdown tables, ready to paste into an issue or a slide.
const t = require('./tables');
const { markdownTable } = require('./markup');
const { isRouterFigure, isUnmeasured } = require('./limits');
const { routerFigures, limitGroups } = require('./headline');
const { floorText } = require('./format');
const words = require('./words');

/** The banner: the router's own figures first, then whether its req/s are its own. */
function banner(results) {
  const out = [];
  const figures = routerFigures(results);
  if (figures) {
    out.push(`> **${figures.lead.join(' ')}**`, '', markdownTable(figures.table), '');
    if (figures.floor) out.push(figures.floor, '');
  } else {
    out.push('> The router’s CPU was not measured in this run: no cost per request or capacity.', '');
  }
  const saturated = results.cells.filter((c) => !isRouterFigure(c) && !isUnmeasured(c));
  if (saturated.length) {
    out.push(
      `> **${saturated.length} of ${results.cells.length} cells were not limited by the router.** ` +
        'Their req/s is what the load generator, the data service, a shared host or the offered load allowed, not what ' +
        'the router can: read it as a lower bound for the router.' +
        (figures ? ' Its µs per request is its own all the same.' : ''),
      '',
    );
  }
  return out;
}

/** What the reader must discount: another protocol than OpenShift's, a host busy with other work. */
function alerts(results) {
  const out = [];
  const notHttp11 = t.protocolNotes(results);
  if (notHttp11.length) {
    out.push(
      `> **${notHttp11.length} cell(s) did not run over HTTP/1.1 alone**, as they would on OpenShift's router by default: ` +
        `${notHttp11.join('; ')}.`,
      '',
    );
  }
  const contended = results.cells.filter((c) => c.limitedBy.hostBusy);
  if (contended.length) {
    out.push(
      `> **The host was busy with other work during ${words.countText(contended, results)}**: their figures are lower and noisier than this machine can do.`,
      '',
    );
  }
  return out;
}

/** What limited each cell: a sentence per verdict that occurs, then the figures, a row per cell. */
function limitsSection(results) {
  return [
    `## ${words.LIMITS_TITLE}`,
    '',
    ...limitGroups(results).map((group) => `- ${group.title}`),
    '',
    markdownTable(t.limitRows(results)),
    '',
    words.LIMITS_TEXT,
    '',
  ];
}

/** `sections`: more lines from the same directory's runs (the reliability section), before Environment. */
function renderMarkdown(results, { sections = [] } = {}) {
  const out = [`# Router matrix ${results.id}`, ''];
  if (!results.complete) out.push('**This run was interrupted: only the cells below finished.**', '');
  out.push(
    `${results.cells.length} cell(s), ${results.environment.target} target, measured ${results.startedAt}. ${words.INTRO_TEXT}`,
    '',
  );
  out.push(...banner(results), ...alerts(results), ...limitsSection(results));
  out.push('## Results', '', markdownTable(t.cellRows(results)), '', words.RESULTS_NOTE, '');
  if (results.skippedCells.length) {
    out.push('## Cells not run', '', words.SKIPPED_TEXT, '', markdownTable(t.skippedRows(results)), '');
  }
  out.push(...costSection(results));
  out.push(
    '## Where the time goes (p50, ms)',
    '',
    words.TIME_TEXT,
    '',
    markdownTable(t.decompositionRows(results)),
    '',
  );
  if (results.cells.some((c) => c.crossCheck)) {
    out.push(
      '## Cross-check: k6 vs wrk (keep-alive cells)',
      '',
      markdownTable(t.crossCheckRows(results)),
      '',
    );
  }
  out.push(...sizingSection(results), ...comparisonSection(results), ...sections);
  out.push('## Environment', '', markdownTable(t.environmentRows(results)), '');
  return `${out.join('\n')}\n`;
}

/** This run's ratios to http beside Red Hat's, then the reference tables themselves. */
function comparisonSection(results) {
  const out = [
    '## Compared with Red Hat’s figures',
    '',
    words.COMPARISON_TEXT,
    '',
    `**Which ratio is the router’s:** ${words.RATIO_TEXT}.`,
    '',
  ];
  for (const group of t.comparisonGroups(results)) {
    out.push(`### ${group.title}`, '');
    for (const note of group.notes) out.push(`- ${note}`);
    if (group.notes.length) out.push('');
    out.push(markdownTable(t.referenceRows(group)), '');
  }
  out.push('### The reference tables (req/s)', '');
  for (const table of results.reference.tables) {
    out.push(`**${table.title}** — ${table.conditions}.`, '', markdownTable(t.referenceTableRows(table)), '');
  }
  const bank = results.reference.bank;
  out.push(
    `**${bank.title}** — ${bank.conditions}: target ${bank.targetTps} TPS, service time about ${bank.serviceTimeMs} ms, end to end ${bank.endToEndMs.min}–${bank.endToEndMs.max} ms; ${bank.finding}.`,
    '',
  );
  return out;
}

/** Cost per request of every role, the router's capacity, and close TLS cells against the floor. */
function costSection(results) {
  const out = [
    '## Cost and capacity',
    '',
    'µs of CPU per successful request of each role: median, and min–max across the samples where they differ; wrk only ' +
      'for the cells it cross-checked. The router’s capacity per core is 1 s ÷ its median cost; the projection multiplies ' +
      'it by the cores its threads can use; where the router was at its own limit, the measured req/s stands beside it as ' +
      'the check.',
    '',
    markdownTable(t.costRows(results)),
    '',
  ];
  const bases = [...new Set(results.cells.filter((c) => c.capacity).map((c) => c.capacity.basis))];
  for (const basis of bases) out.push(`**Assumption:** ${basis}.`, '');
  const handshakes = t.handshakeRows(results);
  if (handshakes.rows.length) {
    out.push(
      '### Full handshakes (close TLS cells)',
      '',
      (results.handshakeFloor
        ? `The floor: ${floorText(results.handshakeFloor)}. A multiple of 1× would be the cryptography alone.`
        : 'The handshake floor was not measured in this run: no multiple of it.') +
        ' Passthrough’s handshakes happen at the data service, so its multiple is the service’s.',
      '',
      markdownTable(handshakes),
      '',
    );
  }
  const sessions = t.sessionRows(results);
  if (sessions.rows.length) {
    out.push(
      '### TLS sessions at the router (close TLS cells)',
      '',
      words.SESSIONS_TEXT,
      '',
      markdownTable(sessions),
      '',
    );
  }
  const prices = t.handshakePriceRows(results);
  if (prices.rows.length) {
    out.push('### The price of a full handshake', '', words.PRICE_TEXT, '', markdownTable(prices), '');
  }
  const counters = t.routerCounterRows(results);
  if (counters.rows.length) {
    out.push('### The router’s own counters', '', words.COUNTERS_TEXT, '', markdownTable(counters), '');
  }
  const cluster = t.clusterRouterRows(results);
  if (cluster.rows.length) {
    out.push('### The router from Prometheus', '', words.CLUSTER_TEXT, '', markdownTable(cluster), '');
  }
  return out;
}

/** How many router cores, service instances and generator cores the run's target TPS needs. */
function sizingSection(results) {
  const sizing = results.sizing;
  if (!sizing) return ['## Sizing', '', 'No sizing: the run was not finalized.', ''];
  return [
    `## Sizing for ${sizing.tps} TPS`,
    '',
    `What proving ${sizing.tps} successful requests per second would take, per cell, from this run’s median costs with ` +
      `${Math.round(sizing.headroom * 100)} % headroom. – : the role’s cost was not measured; wrk’s cost is known only ` +
      'for the cells it cross-checked.',
    '',
    markdownTable(t.sizingRows(results)),
    '',
    'Assumptions:',
    '',
    ...sizing.assumptions.map((a) => `- ${a}`),
    '',
    'For another target: `npm run sizing -- <results dir> --tps N`',
    '',
  ];
}

module.exports = { renderMarkdown };
