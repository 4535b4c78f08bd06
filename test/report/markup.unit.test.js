'use strict';
// The primitives both reports are written with (lib/report/markup.js).
const { htmlTable } = require('../../lib/report/markup');

test('a heading may break after a slash before a word, never inside a unit like req/s', () => {
  const html = htmlTable({ head: ['capacity/core (req/s)', 'a < b'], rows: [['1', '2']] });
  expect(html).toContain('<th>capacity/<wbr>core (req/s)</th>');
  expect(html).toContain('<th>a &lt; b</th>');
});

test('the table sits in a box that scrolls sideways rather than widening the page', () => {
  expect(htmlTable({ head: ['x'], rows: [['1']] })).toMatch(/^<div class="scroll"><table>/);
});

test("a paragraph's code spans become <code>, and the rest is escaped", () => {
  const { htmlProse } = require('../../lib/report/markup');
  expect(htmlProse('parse is the fastest `haproxy -c` of <five>')).toBe(
    'parse is the fastest <code>haproxy -c</code> of &lt;five&gt;',
  );
});
