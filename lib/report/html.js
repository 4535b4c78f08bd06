'use strict';
// report.html: one self-contained file (inline CSS and SVG, no script, no network) that opens
// offline in any browser.
const t = require('./tables');
const { escapeHtml: escape, htmlTable: table, htmlHeading, htmlPage } = require('./markup');
const { rpsChart, latencyChart, costCharts, ratioChart } = require('./charts');
const { isRouterFigure } = require('./limits');
const { routerFigures, limitGroups } = require('./headline');
const { floorText } = require('./format');
const words = require('./words');

/** The router's own figures, first: µs per request, per handshake against the floor, capacity. */
function leadBox(results) {
  const figures = routerFigures(results);
  if (!figures)
    return '<div class="lead"><p>The router’s CPU was not measured in this run: no cost per request or capacity.</p></div>';
  return (
    `<div class="lead"><p><strong>${escape(figures.lead.join(' '))}</strong></p>${table(figures.table)}` +
    (figures.floor ? `<p class="muted">${escape(figures.floor)}</p>` : '') +
    '</div>'
  );
}

/** What the reader must discount: another protocol than OpenShift's, a host busy with other work. */
function alerts(results) {
  const out = [];
  const notHttp11 = t.protocolNotes(results);
  if (notHttp11.length) {
    out.push(
      `<div class="alert"><strong>${notHttp11.length} cell(s) did not run over HTTP/1.1 alone</strong>, as they would on ` +
        `OpenShift's router by default: ${escape(notHttp11.join('; '))}.</div>`,
    );
  }
  const contended = results.cells.filter((c) => c.limitedBy.hostBusy);
  if (contended.length) {
    const names =
      contended.length < results.cells.length ? ` (${contended.map((c) => c.name).join(', ')})` : '';
    out.push(
      `<div class="alert"><strong>The host was busy with other work during ${words.countText(contended, results)}</strong>` +
        `${escape(names)}: their figures are lower and noisier than this machine can do.</div>`,
    );
  }
  return out;
}

/** The indexes of the rows to shade: cells whose req/s is not the router's own limit. */
const limitedRows = (results) =>
  results.cells.map((c, i) => (isRouterFigure(c) ? -1 : i)).filter((i) => i >= 0);
const SHADED = 'Shaded rows: the req/s is not the router’s own limit.';

/** What limited the cells: a sentence per verdict that occurs, then a row per cell with its figures. */
function limitsSection(results) {
  const rows = t.limitRows(results);
  const limited = limitedRows(results);
  // The router's own limits last: the other verdicts are what the reader must discount.
  const groups = limitGroups(results);
  const ordered = [...groups.filter((g) => g.key !== 'router'), ...groups.filter((g) => g.key === 'router')];
  const box = limited.length
    ? `<div class="alert">${ordered.map((g) => `<p><strong>${escape(g.title)}</strong></p>`).join('')}</div>`
    : '<div class="ok">Every cell was limited by the router: each req/s is the router’s own.</div>';
  return [
    htmlHeading(2, words.LIMITS_TITLE, { id: 'limits' }),
    box,
    table(rows, { limitedRows: limited, wrap: [-1] }),
    `<p class="muted">${escape(words.LIMITS_TEXT)} ${SHADED}</p>`,
  ];
}

/** The charts and the main table, a row per cell, then the cells the run could not measure. */
function resultsSection(results) {
  const out = ['<h2>Results</h2>', ...costCharts(results), rpsChart(results), latencyChart(results)];
  out.push(table(t.cellRows(results), { limitedRows: limitedRows(results), wrap: [-1] }));
  out.push(`<p class="muted">${escape(words.RESULTS_NOTE)} ${SHADED}</p>`);
  if (results.skippedCells.length) {
    out.push(
      '<h3>Cells not run</h3>',
      `<p>${escape(words.SKIPPED_TEXT)}</p>`,
      table(t.skippedRows(results), { wrap: [-1] }),
    );
  }
  const dashboards = results.cells.flatMap((c) => (c.dashboards || []).map((file) => [c.name, file]));
  if (dashboards.length) {
    const items = dashboards.map(
      ([name, file]) => `<li><a href="${escape(file)}">${escape(name)}: ${escape(file)}</a></li>`,
    );
    out.push(`<h3>k6 web dashboards</h3><ul>${items.join('')}</ul>`);
  }
  return out;
}

/** This run's ratios to http beside Red Hat's, with a chart per group, then the reference tables. */
function comparisonSection(results) {
  const out = [
    '<h2>Compared with Red Hat’s figures</h2>',
    `<p>${escape(words.COMPARISON_TEXT)}</p>`,
    `<p><strong>Which ratio is the router’s:</strong> ${escape(words.RATIO_TEXT)}, and so does hatching in the charts.</p>`,
  ];
  for (const group of t.comparisonGroups(results)) {
    const conditions = [...new Map(group.columns.map((c) => [c.tableId, c])).values()];
    const items = [...conditions.map((c) => `${c.title}: ${c.conditions}`), ...group.notes];
    out.push(htmlHeading(3, group.title), ratioChart(group));
    out.push(`<ul class="conditions">${items.map((text) => `<li>${escape(text)}</li>`).join('')}</ul>`);
    out.push(table(t.referenceRows(group)));
  }
  out.push('<h3>The reference tables (req/s)</h3>');
  for (const ref of results.reference.tables) {
    out.push(
      `<p><strong>${escape(ref.title)}</strong> <span class="conditions">— ${escape(ref.conditions)}</span></p>`,
      table(t.referenceTableRows(ref)),
    );
  }
  const bank = results.reference.bank;
  out.push(
    `<p><strong>${escape(bank.title)}</strong> <span class="conditions">— ${escape(bank.conditions)}</span>: target ${bank.targetTps} TPS, ` +
      `service time about ${bank.serviceTimeMs} ms, end to end ${bank.endToEndMs.min}–${bank.endToEndMs.max} ms; ${escape(bank.finding)}.</p>`,
  );
  return out;
}

/** `sections`: more HTML from the same directory's runs (the reliability section), before Environment. */
function renderHtml(results, { sections = [] } = {}) {
  const parts = [
    htmlHeading(1, `Router matrix ${results.id}`),
    `<p class="muted">${results.cells.length} cell(s) against the ${escape(results.environment.target)}, ` +
      `started ${escape(results.startedAt)}. ${escape(words.INTRO_TEXT)}</p>`,
    results.complete
      ? ''
      : '<div class="alert"><strong>This run was interrupted:</strong> only the cells below finished.</div>',
    leadBox(results),
    ...alerts(results),
    ...limitsSection(results),
    ...resultsSection(results),
    ...costSection(results),
    '<h2>Where the time goes (p50, ms)</h2>',
    `<p>${escape(words.TIME_TEXT)}</p>`,
    table(t.decompositionRows(results)),
  ];
  if (results.cells.some((c) => c.crossCheck)) {
    parts.push('<h2>Cross-check: k6 vs wrk</h2>', table(t.crossCheckRows(results), { wrap: [-1] }));
  }
  parts.push(...sizingSection(results), ...comparisonSection(results), ...sections);
  parts.push('<h2>Environment</h2>', table(t.environmentRows(results), { wrap: [-1] }));
  return `${htmlPage(`Router matrix ${results.id}`, parts)}\n`;
}

/** Cost per request of every role, the router's capacity, and close TLS cells against the floor. */
function costSection(results) {
  const out = ['<h2>Cost and capacity</h2>'];
  out.push(
    '<p>µs of CPU per successful request of each role: median, and min–max across the samples where they differ. ' +
      '<em>wrk</em> only for the cells it cross-checked. The router’s capacity per core is 1 s ÷ its median cost; ' +
      'the projection multiplies it by the cores its threads can use; where the router was at its own limit, the measured req/s ' +
      'stands beside it as the check.</p>',
  );
  out.push(table(t.costRows(results)));
  const bases = [...new Set(results.cells.filter((c) => c.capacity).map((c) => c.capacity.basis))];
  for (const basis of bases) out.push(`<p><strong>Assumption:</strong> ${escape(basis)}.</p>`);
  const handshakes = t.handshakeRows(results);
  if (handshakes.rows.length) {
    out.push('<h3>Full handshakes (close TLS cells)</h3>');
    out.push(
      `<p>${
        results.handshakeFloor
          ? `The floor: ${escape(floorText(results.handshakeFloor))}. A multiple of 1× would be the cryptography alone.`
          : 'The handshake floor was not measured in this run: no multiple of it.'
      } Passthrough’s handshakes happen at the data service, so its multiple is the service’s.</p>`,
    );
    out.push(table(handshakes));
  }
  const sessions = t.sessionRows(results);
  if (sessions.rows.length) {
    out.push(
      '<h3>TLS sessions at the router (close TLS cells)</h3>',
      `<p>${escape(words.SESSIONS_TEXT)}</p>`,
      table(sessions, { wrap: [-1] }),
    );
  }
  const prices = t.handshakePriceRows(results);
  if (prices.rows.length) {
    out.push('<h3>The price of a full handshake</h3>', `<p>${escape(words.PRICE_TEXT)}</p>`, table(prices));
  }
  const counters = t.routerCounterRows(results);
  if (counters.rows.length) {
    out.push('<h3>The router’s own counters</h3>', `<p>${escape(words.COUNTERS_TEXT)}</p>`, table(counters));
  }
  const cluster = t.clusterRouterRows(results);
  if (cluster.rows.length) {
    out.push('<h3>The router from Prometheus</h3>', `<p>${escape(words.CLUSTER_TEXT)}</p>`, table(cluster));
  }
  return out;
}

/** How many router cores, service instances and generator cores the run's target TPS needs. */
function sizingSection(results) {
  const sizing = results.sizing;
  if (!sizing) return ['<h2>Sizing</h2>', '<p>No sizing: the run was not finalized.</p>'];
  return [
    `<h2>Sizing for ${escape(sizing.tps)} TPS</h2>`,
    `<p>What proving ${escape(sizing.tps)} successful requests per second would take, per cell, from this run’s median costs ` +
      `with ${Math.round(sizing.headroom * 100)} % headroom. – : the role’s cost was not measured; wrk’s cost is known only for the cells it cross-checked.</p>`,
    table(t.sizingRows(results)),
    `<p><strong>Assumptions:</strong></p><ul>${sizing.assumptions.map((a) => `<li>${escape(a)}</li>`).join('')}</ul>`,
    '<p>For another target: <code>npm run sizing -- &lt;results dir&gt; --tps N</code></p>',
  ];
}

module.exports = { renderHtml };
