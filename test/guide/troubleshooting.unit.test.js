'use strict';
// The troubleshooting page quotes the messages students see. A block tagged `from=<files>` must
// still be what the code says: each fixed part of every line (between `<…>` placeholders, at
// least 10 characters, list markers and edge punctuation left out) appears in those files' string literals, joined across `' + '` splits.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');
const { fencedBlocks } = require('../../lib/guide/exercise');

const PAGE = 'docs/troubleshooting.md';
const quoted = fencedBlocks(fs.readFileSync(path.join(ROOT, PAGE), 'utf8')).filter((b) => b.attrs.from);

/** A source file's text with string concatenations joined and `${…}` made a gap. */
const normalized = (file) =>
  fs
    .readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/[`'"]\s*\+\s*[`'"]/g, '')
    .replace(/\$\{[^}]*\}/g, '\u0000');

test('the page quotes messages from the code', () => {
  expect(quoted.length).toBeGreaterThanOrEqual(8);
});

test.each(quoted.map((b) => [b.line, b]))(
  'the message block on line %i is what the code says',
  (line, block) => {
    const sources = block.attrs.from.split(',').map(normalized).join('\n');
    const fragments = block.text
      .split('\n')
      .flatMap((l) => l.split(/<[^>]*>/))
      .map((f) => f.replace(/^[\s():,.-]+|[\s(:,.-]+$/g, ''))
      .filter((f) => f.length >= 10);
    expect(fragments.length).toBeGreaterThan(0);
    expect(fragments.filter((f) => !sources.includes(f))).toEqual([]);
  },
);
