'use strict';
// The report's sections and per-cell figures as data (lib/report/sections.js, figures.js): one
// list for Markdown and HTML, so that a section or a figure is added in one place.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');
const { SECTIONS, layOut } = require('../../lib/report/sections');
const { renderMarkdown, markdownBlocks } = require('../../lib/report/markdown');
const { renderHtml } = require('../../lib/report/html');
const { markdownTable, htmlTable, escapeHtml } = require('../../lib/report/markup');
const { CELL_FIGURES, figureValue } = require('../../lib/report/figures');
const { cellRows, formatCellTable } = require('../../lib/report/tables');
const { FIGURES } = require('../../lib/results-model/comparison');

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'matrix-results', 'results.json');
const fixture = () => JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));

/** The fixture with every optional section's condition met: skipped cells, an interrupted run. */
function everything() {
  const r = fixture();
  r.complete = false;
  r.skippedCells = [{ name: 'passthrough:1k:close:resumed', reason: 'wrk cannot send a route host as SNI' }];
  return r;
}

const always = () => true;

describe('the report’s sections', () => {
  test('every section applies to a full run and renders in both formats: each table, each heading', () => {
    const r = everything();
    const md = renderMarkdown(r);
    const html = renderHtml(r);
    for (const section of SECTIONS) expect(section.applies(r)).toBe(true);
    for (const section of layOut(r, 'markdown')) {
      if (section.title) expect(md).toContain(`## ${section.title}\n`);
      for (const block of section.blocks.filter((b) => b.table))
        expect(md).toContain(markdownTable(block.table));
    }
    for (const section of layOut(r, 'html')) {
      if (section.title) expect(html).toContain(`>${escapeHtml(section.title)}</h2>`);
      for (const block of section.blocks.filter((b) => b.table)) {
        expect(html).toContain(htmlTable(block.table, { limitedRows: block.shade, wrap: block.wrap }));
      }
    }
  });

  test('Markdown and HTML have the same sections in the same order', () => {
    const r = everything();
    const md = [...renderMarkdown(r).matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    const html = [...renderHtml(r).matchAll(/<h2[^>]*>([^<]+)<\/h2>/g)].map((m) => m[1]);
    expect(md.map(escapeHtml)).toEqual(html);
    expect(md).toEqual(layOut(r, 'markdown').flatMap((s) => (s.title ? [s.title] : [])));
    // The interrupted run says so before anything else, in both.
    expect(renderHtml(r).indexOf('This run was interrupted')).toBeLessThan(
      renderHtml(r).indexOf('cell(s), lab target'),
    );
  });

  test('a section added to the list shows in both formats, where the list puts it', () => {
    const extra = {
      id: 'extra',
      title: 'Extra <figures>',
      applies: always,
      blocks: () => [
        { paragraph: ['Read ', { strong: 'this' }, ' with ', { code: 'npm run x' }, '.'] },
        { table: { head: ['a', 'b'], rows: [['1', '2']] } },
        { list: ['one', 'two'] },
      ],
    };
    const outline = [SECTIONS[0], extra, SECTIONS[SECTIONS.length - 1]];
    const r = fixture();
    const md = renderMarkdown(r, { outline });
    expect(md).toContain('## Extra <figures>\n\nRead **this** with `npm run x`.\n\n| a | b |');
    expect(md).toContain('- one\n- two\n');
    expect(md.indexOf('## Extra')).toBeLessThan(md.indexOf('## Environment'));
    expect(md).not.toContain('## Results');
    const html = renderHtml(r, { outline });
    expect(html).toContain(
      '<h2>Extra &lt;figures&gt;</h2>\n<p>Read <strong>this</strong> with <code>npm run x</code>.</p>',
    );
    expect(html).toContain(htmlTable({ head: ['a', 'b'], rows: [['1', '2']] }));
    expect(html).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(html.indexOf('Extra')).toBeLessThan(html.indexOf('<h2>Environment</h2>'));
  });

  test('a section that does not apply is in neither format; the other documents go where `others` is', () => {
    const r = fixture();
    expect(r.skippedCells).toEqual([]);
    expect(renderMarkdown(r)).not.toContain('Cells not run');
    expect(renderHtml(r)).not.toContain('Cells not run');
    const md = renderMarkdown(r, { sections: ['## Reliability', ''] });
    expect(md.indexOf('## Reliability')).toBeGreaterThan(md.indexOf('## Compared with Red Hat’s figures'));
    expect(md.indexOf('## Reliability')).toBeLessThan(md.indexOf('## Environment'));
  });

  test('a block or span marked for one format is left out of the other; a chart is HTML’s alone', () => {
    const outline = [
      {
        id: 'only',
        title: 'Only',
        applies: always,
        blocks: () => [
          { only: 'html', paragraph: 'for the page' },
          { only: 'markdown', paragraph: 'for the issue' },
          { paragraph: ['both', { only: 'html', text: ' and shaded' }] },
          { chart: () => '<svg class="chart"></svg>' },
          { box: 'lead', blocks: [{ paragraph: 'headline' }, { paragraph: 'body' }] },
        ],
      },
    ];
    const md = renderMarkdown(fixture(), { outline });
    const html = renderHtml(fixture(), { outline });
    expect(md).toBe('## Only\n\nfor the issue\n\nboth\n\n> headline\n\nbody\n\n');
    expect(html).toContain(
      '<h2>Only</h2>\n<p>for the page</p>\n<p>both and shaded</p>\n<svg class="chart"></svg>\n' +
        '<div class="lead"><p>headline</p><p>body</p></div>',
    );
    expect(markdownBlocks([{ chart: () => '<svg/>' }])).toEqual([]);
  });
});

describe('the per-cell figures', () => {
  test('the main table is the list: a column per figure, in its order, in Markdown, HTML and the console', () => {
    const r = fixture();
    const { head, rows } = cellRows(r);
    expect(head).toEqual(CELL_FIGURES.map((f) => f.label));
    expect(rows[0]).toHaveLength(CELL_FIGURES.length);
    expect(formatCellTable(r).split('\n')[0].split(/ {2,}/)).toEqual(head);
  });

  test('a figure added to the list is a column with its values', () => {
    const r = fixture();
    const samples = { key: 'samples', label: 'samples', of: (c) => c.samples, format: (v) => `${v}×` };
    const { head, rows } = cellRows(r, [...CELL_FIGURES, samples]);
    expect(head[head.length - 1]).toBe('samples');
    expect(rows.map((row) => row[row.length - 1])).toEqual(r.cells.map((c) => `${c.samples}×`));
  });

  test('comparable: the figures compare sets side by side, by the same key and label', () => {
    const comparable = CELL_FIGURES.filter((f) => f.comparable);
    expect(comparable.map((f) => f.key)).toEqual(['routerUs', 'generatorUs', 'p99']);
    for (const figure of comparable) {
      expect(FIGURES.find((f) => f.key === figure.key).label).toBe(figure.label);
    }
  });

  test('a figure is read by its key; an unknown key is refused by name', () => {
    const [cell] = fixture().cells;
    expect(figureValue('p99', cell)).toBe(cell.p99);
    expect(() => figureValue('p42', cell)).toThrow(/no cell figure 'p42' \(known: cell, routerUs/);
  });
});
