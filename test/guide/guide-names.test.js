'use strict';
// Every command the guide shows names things that exist (npm scripts, each command's options from its
// --help, LAB_* knobs, k6 variables, files): a renamed option fails here before a student meets it.
// Links and diagrams: pages.unit.test.js.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');
const { KNOBS } = require('../../lib/lab/common/options');
const { fencedBlocks, blockCommands, needsOf } = require('../../lib/guide/exercise');
const { commandProblems, flagsFromHelp, scriptEntry, inlineCommands } = require('../../lib/guide/names');

const { PAGES } = require('./guide-pages');
const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

const helpFlags = new Map();
/** The options a script's command declares, from its --help (null: the script takes none we check). */
function flags(script) {
  if (!helpFlags.has(script)) {
    const entry = scriptEntry(scripts[script] || '');
    let found = null;
    if (entry && entry.startsWith('bin/')) {
      const r = spawnSync(process.execPath, [path.join(ROOT, entry), '--help'], {
        encoding: 'utf8',
        timeout: 30000,
      });
      if (r.status !== 0) throw new Error(`${entry} --help failed: ${r.stderr}`);
      found = flagsFromHelp(r.stdout);
      found.add('--help');
    }
    helpFlags.set(script, found);
  }
  return helpFlags.get(script);
}

const k6Library = fs
  .readdirSync(path.join(ROOT, 'k6', 'lib'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => fs.readFileSync(path.join(ROOT, 'k6', 'lib', f), 'utf8'))
  .join('\n');
const known = {
  scripts: new Set(Object.keys(scripts)),
  flags,
  knobs: new Set(KNOBS.map((k) => k.env)),
  k6Variables: (file) => {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8') + k6Library;
    return new Set(text.match(/\b[A-Z][A-Z0-9_]+\b/g));
  },
  exists: (file) => fs.existsSync(path.join(ROOT, file)),
};

/** Scripts a block waits for (needs=script:<name>) that package.json does not have yet. */
const waitsFor = (block) =>
  needsOf(block.attrs)
    .filter((n) => n.kind === 'script' && !known.scripts.has(n.value))
    .map((n) => n.value);

const shBlocks = (page) =>
  fencedBlocks(fs.readFileSync(path.join(ROOT, page), 'utf8')).filter((b) => b.lang === 'sh');

test.each(PAGES)('%s: every shell command names existing scripts, options, knobs and files', (page) => {
  const markdown = fs.readFileSync(path.join(ROOT, page), 'utf8');
  const problems = [];
  const waiting = new Set();
  for (const block of shBlocks(page)) {
    // Such a block is checked once its script exists; the skipped test below names it.
    const waits = waitsFor(block);
    if (waits.length) {
      waits.forEach((script) => waiting.add(script));
      continue;
    }
    for (const { text } of blockCommands(block.text)) {
      for (const p of commandProblems(text, known)) problems.push(`line ${block.line}: ${p} (in: ${text})`);
    }
  }
  for (const text of inlineCommands(markdown)) {
    if ([...waiting].some((script) => text.startsWith(`npm run ${script}`))) continue;
    for (const p of commandProblems(text, known)) problems.push(`inline: ${p} (in: ${text})`);
  }
  expect(problems).toEqual([]);
});

for (const page of PAGES) {
  for (const block of shBlocks(page).filter((b) => waitsFor(b).length)) {
    test.skip(`${page} (block on line ${block.line}) not checked: needs npm run ${waitsFor(block).join(', ')}, which this checkout does not have yet`, () => {});
  }
}
