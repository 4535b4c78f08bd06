'use strict';
// The guide's size budget, declared once: no page of docs/ over 25 KiB, docs/ as a whole within
// 160 KiB, so the guide stays short enough to read. `npm run lint` checks it (bin/docs-budget.js).
const fs = require('node:fs');
const path = require('node:path');

const KIB = 1024;
const DOCS_BUDGET = { pageBytes: 25 * KIB, totalBytes: 160 * KIB };

/** Every file under `dir` (the budget counts them all, not only Markdown): { 'docs/x.md': bytes }. */
function docsSizes(dir, { label = path.basename(dir) } = {}) {
  return Object.fromEntries(
    fs
      .readdirSync(dir, { recursive: true })
      .map((name) => [name, fs.statSync(path.join(dir, name))])
      .filter(([, stat]) => stat.isFile())
      .map(([name, stat]) => [path.posix.join(label, name.split(path.sep).join('/')), stat.size])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

const totalOf = (sizes) => Object.values(sizes).reduce((sum, bytes) => sum + bytes, 0);

/**
 * What goes beyond `limits`: each page over `pageBytes`, then the whole over `totalBytes`, as
 * { page, bytes, limitBytes } (the whole's page is 'all of docs/'). Empty when within budget.
 */
function budgetBreaches(sizes, limits = DOCS_BUDGET) {
  const pages = Object.entries(sizes)
    .filter(([, bytes]) => bytes > limits.pageBytes)
    .map(([page, bytes]) => ({ page, bytes, limitBytes: limits.pageBytes }));
  const total = totalOf(sizes);
  return total > limits.totalBytes
    ? [...pages, { page: 'all of docs/', bytes: total, limitBytes: limits.totalBytes }]
    : pages;
}

const kib = (bytes) => `${(bytes / KIB).toFixed(1)} KiB`;

/** One breach as a sentence that names the page and what to do. */
function breachText({ page, bytes, limitBytes }) {
  return `${page} is ${kib(bytes)}, over its budget of ${kib(limitBytes)}: cut it, do not move it`;
}

/** The room left, for a passing check: the whole and the largest page against their limits. */
function budgetSummary(sizes, limits = DOCS_BUDGET) {
  const [largest, bytes] = Object.entries(sizes).reduce((a, b) => (b[1] > a[1] ? b : a), ['none', 0]);
  return (
    `docs budget: ${kib(totalOf(sizes))} of ${kib(limits.totalBytes)}; ` +
    `largest page ${largest}, ${kib(bytes)} of ${kib(limits.pageBytes)}`
  );
}

module.exports = { DOCS_BUDGET, docsSizes, budgetBreaches, breachText, budgetSummary };
