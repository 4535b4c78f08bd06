'use strict';
// A file's opening comment says what it is for in three lines at most; detail goes beside the code
// it explains. Every JavaScript and Lua file the project owns is read.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');

const OWN = ['bin', 'data-service', 'k6', 'lib', 'test'];
const SKIP = new Set(['node_modules', '.lab', '.tools', 'fixtures']);
const MAX_LINES = 3;

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : sources(file);
    return /\.(js|lua)$/.test(entry.name) ? [file] : [];
  });
}

/** Lines before the opening comment: a shebang, 'use strict', an ESLint or globals directive. */
const PREAMBLE = /^(#!|'use strict'|\/\* (global|eslint)\b)/;

/** The lines of the first comment block, after the preamble. */
function openingComment(text) {
  const lines = text.split('\n');
  let start = 0;
  while (PREAMBLE.test(lines[start])) start += 1;
  const end = lines.findIndex((line, i) => i >= start && !/^\s*(\/\/|--)/.test(line));
  return lines.slice(start, end);
}

test(`every opening comment is ${MAX_LINES} lines at most`, () => {
  const files = OWN.flatMap((dir) => sources(path.join(ROOT, dir)));
  expect(files.length).toBeGreaterThan(200);
  const long = files
    .map((file) => ({
      file: path.relative(ROOT, file),
      lines: openingComment(fs.readFileSync(file, 'utf8')).length,
    }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  expect(long).toEqual([]);
});

test('the opening comment is found after a shebang, use strict and a globals directive', () => {
  const text = "#!/usr/bin/env node\n'use strict';\n/* global Image */\n// one\n// two\nconst x = 1;\n";
  expect(openingComment(text)).toEqual(['// one', '// two']);
});
