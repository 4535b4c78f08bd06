'use strict';
// A comparison of two runs (lib/results-model/comparison.js) as a console table, compare.md and
// compare.html with a forest plot of the intervals (inline SVG, offline).
const { markdownTable, htmlTable, htmlHeading, htmlPage, escapeHtml } = require('./markup');
const { table } = require('../core/text');
const { pct, num } = require('./format');

const METHOD =
  'Change from A to B of each figure over its samples: Hodges–Lehmann on the logarithms, with the ' +
  'exact Mann–Whitney 95 % interval (distribution-free and robust to one noisy sample; it needs 4 ' +
  'samples a side). "no difference detectable": the interval holds 0.';

// A side's median: as many digits as a figure from 0.5 (a ratio) to 10,000s (req/s) needs.
const value = (v) => (v === null || v === undefined ? '–' : num(v, v < 10 ? 2 : v < 100 ? 1 : 0));

// A signed share, on format.js's percentage.
const signed = (v) => (v === null ? '–' : `${v > 0 ? '+' : ''}${pct(v, 1)}`);

/** The rows every rendering shares: one per figure of each compared cell. */
function rows(comparison) {
  const out = [];
  for (const cell of comparison.cells) {
    if (cell.refused) {
      out.push([cell.name, '–', '–', '–', '–', '–', `refused: ${cell.refused}`, '–']);
      continue;
    }
    for (const f of cell.figures) {
      const interval = f.low === null ? 'none' : `${signed(f.low)} … ${signed(f.high)}`;
      out.push([
        cell.name,
        f.label,
        value(f.medianA),
        value(f.medianB),
        signed(f.change),
        interval,
        f.verdict,
        String(f.samplesFor5Pct ?? '–'),
      ]);
    }
  }
  return out;
}

const HEAD = ['cell', 'figure', 'A', 'B', 'change A→B', '95 % interval', 'verdict', 'samples for 5 %'];

/** The conditions that differ, as lines. */
function conditionLines(comparison) {
  if (!comparison.conditions.length) return ['No run-wide condition differs.'];
  return comparison.conditions.map((c) => `- ${c.name}: A ${c.a ?? '–'}, B ${c.b ?? '–'}`);
}

function noteLines(comparison) {
  const lines = comparison.cells
    .filter((c) => c.notes.length)
    .map((c) => `- ${c.name}: ${c.notes.join('; ')}`);
  if (comparison.onlyInA.length) lines.push(`- only in A: ${comparison.onlyInA.join(', ')}`);
  if (comparison.onlyInB.length) lines.push(`- only in B: ${comparison.onlyInB.join(', ')}`);
  return lines;
}

/** The title; the routers named where they differ (Routes against the Gateway API). */
function titleOf({ a, b }) {
  const routers = a.router !== b.router && a.router && b.router ? `: ${b.router} against ${a.router}` : '';
  return `Run ${b.id} (B) against ${a.id} (A)${routers}`;
}

/** compare.md: one section per comparison (each later run against the first). */
function comparisonMarkdown(comparisons) {
  return comparisons.map(oneMarkdown).join('\n');
}

function oneMarkdown(comparison) {
  return [
    `# ${titleOf(comparison)}`,
    '',
    METHOD,
    '',
    '## What differs between the runs',
    '',
    ...conditionLines(comparison),
    '',
    '## Cells',
    '',
    markdownTable({ head: HEAD, rows: rows(comparison) }),
    ...(noteLines(comparison).length ? ['', '## Notes', '', ...noteLines(comparison)] : []),
    '',
  ].join('\n');
}

/** The console's table, what differs, and the notes, for each comparison. */
function comparisonConsole(comparisons) {
  return comparisons.map((c) => `${titleOf(c)}\n${oneConsole(c)}`).join('\n\n');
}

function oneConsole(comparison) {
  return [
    table({ head: HEAD, rows: rows(comparison) }),
    ...conditionLines(comparison),
    ...noteLines(comparison),
  ].join('\n');
}

/** One forest-plot row per figure: the change as a dot, the interval as a bar, 0 as a line. */
function forestPlot(comparison) {
  const figures = comparison.cells.flatMap((c) => c.figures.map((f) => ({ cell: c.name, ...f })));
  const reach = Math.max(0.05, ...figures.flatMap((f) => [f.change, f.low ?? 0, f.high ?? 0].map(Math.abs)));
  const width = 640;
  const left = 300;
  const plot = width - left - 20;
  const x = (v) => left + plot / 2 + (v / reach) * (plot / 2);
  const rowsSvg = figures.map((f, i) => {
    const y = 20 + i * 22;
    const bar =
      f.low === null
        ? ''
        : `<line x1="${x(f.low)}" x2="${x(f.high)}" y1="${y}" y2="${y}" stroke="#555" stroke-width="2"/>`;
    return (
      `<text x="4" y="${y + 4}" font-size="12">${escapeHtml(`${f.cell} · ${f.label}`)}</text>${bar}` +
      `<circle cx="${x(f.change)}" cy="${y}" r="4" fill="${f.verdict === 'better' ? '#2a7' : f.verdict === 'worse' ? '#c33' : '#888'}"/>`
    );
  });
  const height = 30 + figures.length * 22;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" ` +
    `aria-label="change from A to B with 95 % intervals">` +
    `<line x1="${x(0)}" x2="${x(0)}" y1="5" y2="${height - 5}" stroke="#aaa" stroke-dasharray="3 3"/>` +
    `${rowsSvg.join('')}<text x="${x(0) + 4}" y="${height - 4}" font-size="10">0 (±${(reach * 100).toFixed(0)} % at the edges)</text></svg>`
  );
}

/** compare.html: one section per comparison, a forest plot each. */
function comparisonHtml(comparisons) {
  const title =
    comparisons.length === 1
      ? titleOf(comparisons[0])
      : `${comparisons.length} runs against ${comparisons[0].a.id}`;
  return htmlPage(title, comparisons.flatMap(oneHtml));
}

function oneHtml(comparison) {
  const title = titleOf(comparison);
  const list = (lines) =>
    `<ul>${lines.map((l) => `<li>${escapeHtml(l.replace(/^- /, ''))}</li>`).join('')}</ul>`;
  const body = [
    htmlHeading(1, title),
    `<p>${escapeHtml(METHOD)}</p>`,
    htmlHeading(2, 'What differs between the runs'),
    list(conditionLines(comparison)),
    htmlHeading(2, 'Cells'),
    forestPlot(comparison),
    htmlTable({ head: HEAD, rows: rows(comparison) }),
    ...(noteLines(comparison).length ? [htmlHeading(2, 'Notes'), list(noteLines(comparison))] : []),
  ];
  return body;
}

module.exports = { comparisonMarkdown, comparisonConsole, comparisonHtml, METHOD };
