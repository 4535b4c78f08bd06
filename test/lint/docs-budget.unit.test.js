'use strict';
// The guide's size budget: a page over 25 KiB or docs/ over 160 KiB is a breach naming the page,
// and the real docs/ tree is within it (npm run lint runs the same check: bin/docs-budget.js).
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');
const { DOCS_BUDGET, docsSizes, budgetBreaches, breachText } = require('../../lib/guide/docs-budget');

const KIB = 1024;

test('the budget is 25 KiB a page and 160 KiB in all', () => {
  expect(DOCS_BUDGET).toEqual({ pageBytes: 25 * KIB, totalBytes: 160 * KIB });
});

test('a 26 KiB page is a breach that names the page', () => {
  const breaches = budgetBreaches({ 'docs/lab.md': 10 * KIB, 'docs/big.md': 26 * KIB });
  expect(breaches).toEqual([{ page: 'docs/big.md', bytes: 26 * KIB, limitBytes: 25 * KIB }]);
  expect(breachText(breaches[0])).toMatch(/^docs\/big\.md is 26\.0 KiB, over its budget of 25\.0 KiB/);
});

test('a page of exactly 25 KiB is within budget', () => {
  expect(budgetBreaches({ 'docs/edge.md': 25 * KIB })).toEqual([]);
});

test('161 KiB in all is a breach of the whole, though no page is over', () => {
  const sizes = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`docs/p${i}.md`, 23 * KIB]));
  expect(budgetBreaches(sizes)).toEqual([{ page: 'all of docs/', bytes: 161 * KIB, limitBytes: 160 * KIB }]);
});

test('the real docs/ tree is within budget, every file of it counted', () => {
  const sizes = docsSizes(path.join(ROOT, 'docs'));
  expect(Object.keys(sizes)).toEqual(expect.arrayContaining(['docs/README.md', 'docs/benchmark.md']));
  expect(budgetBreaches(sizes).map(breachText)).toEqual([]);
});
