'use strict';
// report.html: one self-contained file (inline CSS and SVG, no script, no network) that opens
// offline in any browser.
const t = require('./tables');
const { escapeXml: escape, rpsChart, latencyChart, ratioChart } = require('./charts');
const { isRouterFigure, isUnmeasured, cellsLimitedBy, reasonTexts } = require('./limits');

const CSS = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; } h3 { margin-top: 1.4rem; }
table { border-collapse: collapse; margin: .6rem 0 1rem; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; white-space: nowrap; }
th { background: #f4f4f4; white-space: normal; vertical-align: bottom; }
.scroll { overflow-x: auto; } td:first-child, th:first-child { text-align: left; }
td.wrap { white-space: normal; text-align: left; }
.alert { border-left: 6px solid #d62728; background: #fdecea; padding: .8rem 1rem; margin: 1rem 0; }
.ok { border-left: 6px solid #2ca02c; background: #eaf6ea; padding: .8rem 1rem; margin: 1rem 0; }
.muted { color: #666; } .conditions { color: #555; font-style: italic; }
tr.limited td { background: #fff4e5; }
svg.chart { display: block; margin: 1rem 0; max-width: 100%; height: auto; }
svg .chart-title { font-weight: 600; font-size: 13px; } svg .label, svg .legend { font-size: 12px; }
svg .tick, svg .value { font-size: 11px; fill: #444; } svg .grid { stroke: #e5e5e5; }
`;

function table({ head, rows }, { limitedRows = [], wrapLast = false } = {}) {
  const th = head.map((h) => `<th>${escape(h)}</th>`).join('');
  const body = rows
    .map((row, i) => {
      const cells = row.map(
        (c, j) => `<td${wrapLast && j === row.length - 1 ? ' class="wrap"' : ''}>${escape(c)}</td>`,
      );
      return `<tr${limitedRows.includes(i) ? ' class="limited"' : ''}>${cells.join('')}</tr>`;
    })
    .join('\n');
  return `<div class="scroll"><table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

function renderHtml(results) {
  const limited = results.cells.map((c, i) => (isRouterFigure(c) ? -1 : i)).filter((i) => i >= 0);
  const generatorBound = cellsLimitedBy(results.cells, 'generator');
  const backendBound = cellsLimitedBy(results.cells, 'backend');
  const unmeasured = results.cells.filter(isUnmeasured);
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
      'Latency is for successful responses, from the merged distribution of all samples, connection set-up included.</p>',
  );
  if (!results.complete)
    parts.push(
      '<div class="alert"><strong>This run was interrupted:</strong> only the cells below finished.</div>',
    );
  const contended = results.cells.filter((c) => c.limitedBy.hostBusy);
  if (contended.length) {
    parts.push(
      `<div class="alert"><strong>The host was busy with other work during ${contended.length} cell(s)</strong> ` +
        `(${escape(contended.map((c) => c.name).join(', '))}): their figures are lower and noisier than this machine can do.</div>`,
    );
  }
  if (limited.length) {
    const list = (cells, role) =>
      cells
        .map((c) => `<li><strong>${escape(c.name)}</strong>: ${escape(reasonTexts(c, role).join('; '))}</li>`)
        .join('');
    parts.push('<div class="alert">');
    if (generatorBound.length) {
      parts.push(
        `<p><strong>The load generator was the limit in ${generatorBound.length} of ${results.cells.length} cells.</strong> ` +
          'Their req/s is what k6 could send, not what the router can serve: a lower bound for the router.</p>' +
          `<ul>${list(generatorBound, 'generator')}</ul>`,
      );
    }
    if (backendBound.length) {
      parts.push(
        `<p><strong>The data service was the limit in ${backendBound.length} cell(s).</strong></p><ul>${list(backendBound, 'backend')}</ul>`,
      );
    }
    if (unmeasured.length) {
      parts.push(
        `<p><strong>No verdict for ${unmeasured.length} cell(s):</strong> what limited them was not measured, ` +
          `so their req/s is not claimed as the router’s.</p><ul>${list(unmeasured, 'unmeasured')}</ul>`,
      );
    }
    parts.push('</div>');
  } else {
    parts.push(
      '<div class="ok">No cell was limited by the load generator or the data service: the figures are the router’s.</div>',
    );
  }
  parts.push('<h2>Results</h2>', rpsChart(results), latencyChart(results));
  parts.push(table(t.cellRows(results), { limitedRows: limited }));
  const saturation = t.saturationRows(results);
  if (saturation.rows.length)
    parts.push('<h3>Why a cell is marked</h3>', table(saturation, { wrapLast: true }));
  const dashboards = results.cells.flatMap((c) => (c.dashboards || []).map((file) => [c.name, file]));
  if (dashboards.length) {
    parts.push('<h3>k6 web dashboards</h3><ul>');
    for (const [name, file] of dashboards)
      parts.push(`<li><a href="${escape(file)}">${escape(name)}: ${escape(file)}</a></li>`);
    parts.push('</ul>');
  }
  parts.push('<h2>Where the time goes (p50, ms)</h2>');
  parts.push(
    '<p><em>waiting</em> is the time to first byte after the request was sent; <em>service</em> is what the data service reported ' +
      '(<code>Server-Timing: app</code>); the difference is the router and the network.</p>',
  );
  parts.push(table(t.decompositionRows(results)));
  if (results.cells.some((c) => c.crossCheck)) {
    parts.push('<h2>Cross-check: k6 vs wrk</h2>', table(t.crossCheckRows(results), { wrapLast: true }));
  }
  parts.push('<h2>Compared with Red Hat’s figures</h2>');
  parts.push(
    '<p>Absolute figures from other hardware are not comparable one to one. Each termination is shown as a ratio to the ' +
      '<code>http</code> row under the same conditions; “→ req/s here” applies the reference ratio to this run’s http figure. ' +
      '⚠ marks a cell whose figure is not the router’s (another part was the limit, or it was not measured).</p>',
  );
  for (const group of t.comparisonGroups(results)) {
    parts.push(`<h3>${escape(group.sizeLabel)} pages, ${escape(group.connection)}</h3>`);
    parts.push(ratioChart(group));
    const conditions = [...new Map(group.columns.map((c) => [c.tableId, c])).values()];
    parts.push(
      `<ul class="conditions">${conditions.map((c) => `<li>${escape(c.title)}: ${escape(c.conditions)}</li>`).join('')}</ul>`,
    );
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
  parts.push('<h2>Environment</h2>', table(t.environmentRows(results), { wrapLast: true }));
  parts.push('</body></html>');
  return `${parts.join('\n')}\n`;
}

module.exports = { renderHtml };
