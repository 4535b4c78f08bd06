'use strict';
// reliability.json's two renderers on one document, and as a section of the matrix report: no
// lab needed.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { writeDocument } = require('../../lib/results-model/reliability');
const { renderMarkdown } = require('../../lib/report/reliability-markdown');
const { renderHtml } = require('../../lib/report/reliability-html');
const { renderReport } = require('../../lib/report/index');
const { sampleDocument } = require('../fixtures/reliability-document');

test('Markdown and HTML show the verdict, the case and the reasons of a broken promise', () => {
  const doc = sampleDocument({ failed: 3 });
  expect(doc.pass).toBe(false);
  const md = renderMarkdown(doc);
  expect(md).toMatch(/^# Reliability run r1: a promise was broken/);
  expect(md).toMatch(/\| edge:keepalive \| reload 1\/2 at 1500 ms \|/);
  expect(md).toContain(
    '**edge:keepalive: 3 of 500 requests failed (3 no response (refused, reset, timeout))**',
  );
  const html = renderHtml(doc);
  expect(html).toContain('<div class="alert"><strong>FAIL</strong>');
  // What was injected is a sentence that may wrap; the figures beside it stay on one line.
  expect(html).toContain('<td>edge:keepalive</td><td class="wrap">reload 1/2 at 1500 ms</td><td>500</td>');
  expect(html).not.toMatch(/undefined|NaN/);
});

test("a reliability run in a matrix run's directory is a section of its report", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-doc-'));
  try {
    fs.copyFileSync(
      path.join(__dirname, '../fixtures/matrix-results/results.json'),
      path.join(dir, 'results.json'),
    );
    const before = renderReport(dir);
    expect(fs.readFileSync(before.html, 'utf8')).not.toContain('Reliability under faults');
    writeDocument(dir, sampleDocument({ failed: 3 }));
    const { md, html } = renderReport(dir);
    const page = fs.readFileSync(html, 'utf8');
    expect(page).toContain('<h2 id="reliability">Reliability under faults: a promise was broken</h2>');
    expect(page).toMatch(/<h3>Router reload under load<\/h3>\s*<div class="alert"><strong>FAIL<\/strong>/);
    expect(page.indexOf('id="reliability"')).toBeLessThan(page.indexOf('<h2>Environment</h2>'));
    const text = fs.readFileSync(md, 'utf8');
    expect(text).toContain('## Reliability under faults: a promise was broken');
    expect(text).toContain('| Router reload under load | ');
    expect(text).toContain('[reliability.md](reliability.md)');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a scenario’s own tables, kept in the document, are laid out by both renderers without the raw figures', () => {
  const doc = sampleDocument();
  doc.scenarios[0].extras = [
    { title: 'Latency per window (ms)', head: ['case', '10 s', '20 s'], rows: [['edge', '1 / 3', 2]] },
    { title: 'edge', text: 'nothing | reproduced' },
  ];
  const md = renderMarkdown(doc);
  expect(md).toContain(
    'Latency per window (ms):\n\n| case | 10 s | 20 s |\n| --- | ---: | ---: |\n| edge | 1 / 3 | 2 |',
  );
  expect(md).toContain('**edge.** nothing | reproduced');
  expect(md).not.toContain('figures per case');
  const html = renderHtml(doc);
  expect(html).toContain(
    '<h3>Latency per window (ms)</h3><div class="scroll"><table><thead><tr><th>case</th>',
  );
  expect(html).toContain('<td>edge</td><td>1 / 3</td><td>2</td>');
  // Without extras, the figures are shown as they are.
  expect(renderMarkdown(sampleDocument())).toContain('- edge:keepalive: {"handover":true,"reloads":2}');
});
