'use strict';
// Renders report.md and report.html of a results directory from its results.json, which
// lib/results-model/document.js reads and checks against the schema first.
const fs = require('node:fs');
const path = require('node:path');
const { readResults } = require('../results-model/document');
const { renderMarkdown } = require('./markdown');
const { renderHtml } = require('./html');

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
