'use strict';
// Renders report.md and report.html of a results directory from its results.json.
const fs = require('node:fs');
const path = require('node:path');
const { renderMarkdown } = require('./markdown');
const { renderHtml } = require('./html');

/** Reads and sanity-checks results.json; throws with the file and the problem named. */
function readResults(dir) {
  const file = path.join(dir, 'results.json');
  let results;
  try {
    results = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    const problem =
      err.code === 'ENOENT'
        ? `does not exist: is ${dir} a results directory?`
        : `is not valid JSON: ${err.message}`;
    throw new Error(`${file} ${problem}`, { cause: err });
  }
  for (const key of ['id', 'cells', 'environment', 'reference', 'options', 'tls']) {
    if (!(key in results)) throw new Error(`${file} has no '${key}': not a router matrix results file`);
  }
  if (!Array.isArray(results.cells)) throw new Error(`${file}: 'cells' must be a list`);
  return results;
}

/** Writes report.md and report.html next to results.json; returns their paths. */
function renderReport(dir) {
  const results = readResults(dir);
  const md = path.join(dir, 'report.md');
  const html = path.join(dir, 'report.html');
  fs.writeFileSync(md, renderMarkdown(results));
  fs.writeFileSync(html, renderHtml(results));
  return { md, html, results };
}

module.exports = { readResults, renderReport };
