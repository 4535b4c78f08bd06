'use strict';
// Renders report.md and report.html of a results directory from its results.json, read and
// checked by lib/results-model. A reliability run (reliability.json) or a route-scale run
// (route-scale.json) in the same directory becomes a section of both.
const fs = require('node:fs');
const path = require('node:path');
const { readResults } = require('../results-model/document');
const { readDocument, JSON_FILE } = require('../results-model/reliability');
const reliabilityMd = require('./reliability-markdown');
const reliabilityHtml = require('./reliability-html');
const routeScaleDoc = require('../results-model/route-scale');
const routeScale = require('./route-scale');
const { renderMarkdown } = require('./markdown');
const { renderHtml } = require('./html');

/** Writes report.md and report.html next to results.json; returns their paths. */
function renderReport(dir) {
  const results = readResults(dir);
  const reliability = fs.existsSync(path.join(dir, JSON_FILE)) ? readDocument(dir) : null;
  const scale = fs.existsSync(path.join(dir, routeScaleDoc.JSON_FILE))
    ? routeScaleDoc.readDocument(dir)
    : null;
  const md = path.join(dir, 'report.md');
  const html = path.join(dir, 'report.html');
  const mdSections = [
    ...(reliability ? reliabilityMd.reliabilitySection(reliability) : []),
    ...(scale ? routeScale.markdownSection(scale) : []),
  ];
  const htmlSections = [
    ...(reliability ? reliabilityHtml.reliabilitySection(reliability) : []),
    ...(scale ? routeScale.htmlSection(scale) : []),
  ];
  fs.writeFileSync(md, renderMarkdown(results, { sections: mdSections }));
  fs.writeFileSync(html, renderHtml(results, { sections: htmlSections }));
  return { md, html, results };
}

module.exports = { readResults, renderReport };
