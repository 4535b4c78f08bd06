'use strict';
// report.html: one self-contained file (inline CSS and SVG, no script, no network) that opens
// offline in any browser.
const t = require('./tables');
const { escapeXml: escape, rpsChart, latencyChart, costCharts, ratioChart } = require('./charts');
const { isRouterFigure } = require('./limits');
const { routerFigures, limitGroups } = require('./headline');
const { floorText } = require('./format');
const { RESULTS_NOTE, SESSIONS_TEXT, PRICE_TEXT, COUNTERS_TEXT, SKIPPED_TEXT } = require('./words');

const CSS = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; } h3 { margin-top: 1.4rem; }
table { border-collapse: collapse; margin: .6rem 0 1rem; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; white-space: nowrap; }
th { background: #f4f4f4; white-space: normal; vertical-align: bottom; }
.scroll { overflow-x: auto; } td:first-child, th:first-child { text-align: left; }
td.wrap { white-space: normal; text-align: left; } td.spread { white-space: normal; } td.spread span { white-space: nowrap; }
.alert { border-left: 6px solid #d62728; background: #fdecea; padding: .8rem 1rem; margin: 1rem 0; }
.lead { border-left: 6px solid #4c78a8; background: #eef3fa; padding: .8rem 1rem; margin: 1rem 0; }
.lead p { margin: .2rem 0 .5rem; } .lead ul { margin: .2rem 0; padding-left: 1.2rem; }
.ok { border-left: 6px solid #2ca02c; background: #eaf6ea; padding: .8rem 1rem; margin: 1rem 0; }
.muted { color: #666; } .conditions { color: #555; font-style: italic; }
tr.limited td { background: #fff4e5; }
svg.chart { display: block; margin: 1rem 0; max-width: 100%; height: auto; }
svg .chart-title { font-weight: 600; font-size: 13px; } svg .label, svg .legend { font-size: 12px; }
svg .tick, svg .value { font-size: 11px; fill: #444; } svg .grid { stroke: #e5e5e5; }
`;

const SPREAD = /^\S+ \(\S+–\S+\)$/;

/**
 * An HTML table. `wrap`: the columns (by index, negative from the end) that hold sentences and
 * may wrap; every other cell stays on one line, so that figures are never broken.
 */
function table({ head, rows }, { limitedRows = [], wrap = [] } = {}) {
  const th = head.map((h) => `<th>${escape(h)}</th>`).join('');
  const body = rows
    .map((row, i) => {
      const cells = row.map((c, j) => {
        // A spread ("36 (33–40)") may break before its range, so that a wide table still fits.
        if (SPREAD.test(c)) {
          const [median, range] = String(c).split(' ');
          return `<td class="spread">${escape(median)} <span>${escape(range)}</span></td>`;
        }
        const wraps = wrap.some((w) => (w < 0 ? row.length + w : w) === j);
        return `<td${wraps ? ' class="wrap"' : ''}>${escape(c)}</td>`;
      });
      return `<tr${limitedRows.includes(i) ? ' class="limited"' : ''}>${cells.join('')}</tr>`;
    })
    .join('\n');
  return `<div class="scroll"><table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

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

/** Then what limited each cell, quoted from its limitedBy. */
function limitsBox(results) {
  const groups = limitGroups(results);
  if (!results.cells.some((c) => !isRouterFigure(c)))
    return '<div class="ok">Every cell was limited by the router: each req/s is the router’s own.</div>';
  // The router's own limits last: the other verdicts are what the reader must discount.
  const ordered = [...groups.filter((g) => g.key !== 'router'), ...groups.filter((g) => g.key === 'router')];
  const body = ordered.map(
    (g) =>
      `<p><strong>${escape(g.title)}</strong></p><ul>${g.cells
        .map((c) => `<li><strong>${escape(c.name)}</strong>: ${escape(c.texts.join('; '))}</li>`)
        .join('')}</ul>`,
  );
  return `<div class="alert">${body.join('')}</div>`;
}

/** `sections`: more HTML from the same directory's runs (the reliability section), before Environment. */
function renderHtml(results, { sections = [] } = {}) {
  const limited = results.cells.map((c, i) => (isRouterFigure(c) ? -1 : i)).filter((i) => i >= 0);
  const parts = [];
  parts.push(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Router matrix ${escape(results.id)}</title>`,
  );
  parts.push(
    `<meta name="viewport" content="width=device-width, initial-scale=1"><style>${CSS}</style></head><body>`,
  );
  parts.push(`<h1>Router matrix ${escape(results.id)}</h1>`);
  parts.push(
    `<p class="muted">${results.cells.length} cell(s) against the ${escape(results.environment.target)}, started ${escape(results.startedAt)}. ` +
      'Latency is for successful responses, from the merged distribution of all samples, connection set-up included. ' +
      'Cost is µs of CPU per successful request: a role’s CPU seconds over a sample ÷ its successful requests.</p>',
  );
  if (!results.complete)
    parts.push(
      '<div class="alert"><strong>This run was interrupted:</strong> only the cells below finished.</div>',
    );
  parts.push(leadBox(results));
  const notHttp11 = t.protocolNotes(results);
  if (notHttp11.length) {
    parts.push(
      `<div class="alert"><strong>${notHttp11.length} cell(s) did not run over HTTP/1.1 alone</strong>, as they would on ` +
        `OpenShift's router by default: ${escape(notHttp11.join('; '))}.</div>`,
    );
  }
  const contended = results.cells.filter((c) => c.limitedBy.hostBusy);
  if (contended.length) {
    parts.push(
      `<div class="alert"><strong>The host was busy with other work during ${contended.length} cell(s)</strong> ` +
        `(${escape(contended.map((c) => c.name).join(', '))}): their figures are lower and noisier than this machine can do.</div>`,
    );
  }
  parts.push(limitsBox(results));
  parts.push('<h2>Results</h2>', ...costCharts(results), rpsChart(results), latencyChart(results));
  parts.push(table(t.cellRows(results), { limitedRows: limited, wrap: [-1] }));
  parts.push(
    `<p class="muted">${escape(RESULTS_NOTE)} Shaded rows: the req/s is not the router’s own limit.</p>`,
  );
  if (results.skippedCells.length) {
    parts.push(
      '<h3>Cells not run</h3>',
      `<p>${escape(SKIPPED_TEXT)}</p>`,
      table(t.skippedRows(results), { wrap: [-1] }),
    );
  }
  const saturation = t.saturationRows(results);
  if (saturation.rows.length) parts.push('<h3>Why a cell is marked</h3>', table(saturation, { wrap: [-1] }));
  const dashboards = results.cells.flatMap((c) => (c.dashboards || []).map((file) => [c.name, file]));
  if (dashboards.length) {
    parts.push('<h3>k6 web dashboards</h3><ul>');
    for (const [name, file] of dashboards)
      parts.push(`<li><a href="${escape(file)}">${escape(name)}: ${escape(file)}</a></li>`);
    parts.push('</ul>');
  }
  parts.push(...costSection(results));
  parts.push('<h2>Where the time goes (p50, ms)</h2>');
  parts.push(
    '<p><em>waiting</em> is the time to first byte after the request was sent; <em>service</em> is what the data service reported ' +
      '(<code>Server-Timing: app</code>); the difference is the router and the network.</p>',
  );
  parts.push(table(t.decompositionRows(results)));
  if (results.cells.some((c) => c.crossCheck)) {
    parts.push('<h2>Cross-check: k6 vs wrk</h2>', table(t.crossCheckRows(results), { wrap: [-1] }));
  }
  parts.push(...sizingSection(results));
  parts.push('<h2>Compared with Red Hat’s figures</h2>');
  parts.push(
    '<p>Absolute figures from other hardware are not comparable one to one. Each termination is shown as a ratio to the ' +
      '<code>http</code> row under the same conditions; “→ req/s here” applies the reference ratio to this run’s http figure.</p>' +
      '<p><strong>Which ratio is the router’s:</strong> the capacity-per-core ratio always is, since it comes from the router’s own CPU per request ' +
      'whoever ran out of CPU first. The req/s ratio is the router’s only where the router was the limit in both cells; ' +
      '⚠ (hatched in the charts) marks one that is not.</p>',
  );
  for (const group of t.comparisonGroups(results)) {
    parts.push(`<h3>${escape(group.title)}</h3>`);
    parts.push(ratioChart(group));
    const conditions = [...new Map(group.columns.map((c) => [c.tableId, c])).values()];
    const items = [...conditions.map((c) => `${c.title}: ${c.conditions}`), ...group.notes];
    parts.push(`<ul class="conditions">${items.map((text) => `<li>${escape(text)}</li>`).join('')}</ul>`);
    parts.push(table(t.referenceRows(group)));
  }
  parts.push('<h3>The reference tables (req/s)</h3>');
  for (const ref of results.reference.tables) {
    parts.push(
      `<p><strong>${escape(ref.title)}</strong> <span class="conditions">— ${escape(ref.conditions)}</span></p>`,
    );
    parts.push(table(t.referenceTableRows(ref)));
  }
  const bank = results.reference.bank;
  parts.push(
    `<p><strong>${escape(bank.title)}</strong> <span class="conditions">— ${escape(bank.conditions)}</span>: target ${bank.targetTps} TPS, ` +
      `service time about ${bank.serviceTimeMs} ms, end to end ${bank.endToEndMs.min}–${bank.endToEndMs.max} ms; ${escape(bank.finding)}.</p>`,
  );
  parts.push(...sections);
  parts.push('<h2>Environment</h2>', table(t.environmentRows(results), { wrap: [-1] }));
  parts.push('</body></html>');
  return `${parts.join('\n')}\n`;
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
      `<p>${escape(SESSIONS_TEXT)}</p>`,
      table(sessions, { wrap: [-1] }),
    );
  }
  const prices = t.handshakePriceRows(results);
  if (prices.rows.length) {
    out.push('<h3>The price of a full handshake</h3>', `<p>${escape(PRICE_TEXT)}</p>`, table(prices));
  }
  const counters = t.routerCounterRows(results);
  if (counters.rows.length) {
    out.push('<h3>The router’s own counters</h3>', `<p>${escape(COUNTERS_TEXT)}</p>`, table(counters));
  }
  out.push('<h3>CPU used per role (average cores)</h3>', table(t.cpuRows(results)));
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

module.exports = { renderHtml, table, CSS };
