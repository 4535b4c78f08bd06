'use strict';
// The primitives the reports are written with: escaping, prose with code spans, a Markdown table,
// an HTML table and heading, and the one stylesheet of the self-contained pages.

/** Text made safe inside HTML and SVG, elements and attributes alike. */
function escapeHtml(text) {
  return String(text).replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c],
  );
}

/** A paragraph's text in HTML: escaped, its Markdown `code` spans as <code>. */
function htmlProse(text) {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** A table cell's text in Markdown: a `|` would end the cell. */
const markdownCell = (text) => String(text).replace(/\|/g, '\\|');

/** A Markdown table; `right`: the columns (by index) aligned right, for figures. */
function markdownTable({ head, rows }, { right = [] } = {}) {
  const rule = head.map((_, i) => (right.includes(i) ? '---:' : '---'));
  return [
    `| ${head.map(markdownCell).join(' | ')} |`,
    `| ${rule.join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(markdownCell).join(' | ')} |`),
  ].join('\n');
}

const CSS = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; } h3 { margin-top: 1.4rem; }
table { border-collapse: collapse; margin: .6rem 0 1rem; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; white-space: nowrap; }
th { background: #f4f4f4; white-space: normal; vertical-align: bottom; }
.scroll { overflow-x: auto; max-width: 100%; } td:first-child, th:first-child { text-align: left; }
td.wrap { white-space: normal; text-align: left; } td.spread { white-space: normal; } td.spread span { white-space: nowrap; }
.alert { border-left: 6px solid #d62728; background: #fdecea; padding: .8rem 1rem; margin: 1rem 0; }
.lead { border-left: 6px solid #4c78a8; background: #eef3fa; padding: .8rem 1rem; margin: 1rem 0; }
.lead p { margin: .2rem 0 .5rem; } .lead ul { margin: .2rem 0; padding-left: 1.2rem; }
.ok { border-left: 6px solid #2ca02c; background: #eaf6ea; padding: .8rem 1rem; margin: 1rem 0; }
.muted { color: #666; } .conditions { color: #555; font-style: italic; }
tr.limited td { background: #fff4e5; }
svg.chart { display: block; margin: 1rem 0; max-width: 100%; height: auto; }
svg .chart-title { font-weight: 600; font-size: 13px; } svg .label, svg .legend { font-size: 12px; }
@media (max-width: 900px) { body { margin: 1rem auto; } table { font-size: 12px; } th, td { padding: 2px 4px; }
  .alert, .lead, .ok { padding: .6rem .5rem; } }
svg .tick, svg .value { font-size: 11px; fill: #444; } svg .grid { stroke: #e5e5e5; }
`;

// A figure followed by its qualifier: "36 (33–40)", "3.26× (at the data service)".
const QUALIFIED = /^(\S+) (\(.+\))$/;

/**
 * One body cell: a sentence (`wraps`) wraps; a figure stays on one line, and a qualified one may
 * break before its parenthesis, so that a wide table still fits.
 */
function htmlCell(text, wraps) {
  const qualified = !wraps && QUALIFIED.exec(String(text));
  if (qualified)
    return `<td class="spread">${escapeHtml(qualified[1])} <span>${escapeHtml(qualified[2])}</span></td>`;
  return `<td${wraps ? ' class="wrap"' : ''}>${escapeHtml(text)}</td>`;
}

/**
 * An HTML table in a box that scrolls sideways when the page is narrower than the table.
 * `wrap`: the columns (by index, negative from the end) that hold sentences and may wrap; every
 * other cell stays on one line, so that figures are never broken. `limitedRows`: rows shaded.
 */
function htmlTable({ head, rows }, { limitedRows = [], wrap = [] } = {}) {
  // A heading may break after a slash before a word ('capacity/core', not 'req/s'): narrow pages fit.
  const th = head.map((h) => `<th>${escapeHtml(h).replace(/\/(?=[a-z]{3})/g, '/<wbr>')}</th>`).join('');
  const body = rows
    .map((row, i) => {
      const wraps = (j) => wrap.some((w) => (w < 0 ? row.length + w : w) === j);
      const cells = row.map((c, j) => htmlCell(c, wraps(j)));
      return `<tr${limitedRows.includes(i) ? ' class="limited"' : ''}>${cells.join('')}</tr>`;
    })
    .join('\n');
  return `<div class="scroll"><table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/** A heading at `level`, its text escaped; `id` makes it a link target. */
const htmlHeading = (level, text, { id } = {}) =>
  `<h${level}${id ? ` id="${escapeHtml(id)}"` : ''}>${escapeHtml(text)}</h${level}>`;

/** A self-contained page: inline CSS, no script, no network. */
function htmlPage(title, body) {
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>`,
    `<meta name="viewport" content="width=device-width, initial-scale=1"><style>${CSS}</style></head><body>`,
    ...body,
    '</body></html>',
  ].join('\n');
}

module.exports = {
  escapeHtml,
  htmlProse,
  markdownTable,
  htmlTable,
  htmlHeading,
  htmlPage,
};
