'use strict';
// The guide's pages without running anything: every relative link resolves (a moved file fails
// here), and every exercise draws its request path in Mermaid.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');
const { fencedBlocks } = require('../../lib/guide/exercise');
const { relativeLinks } = require('../../lib/guide/names');

const { PAGES } = require('./guide-pages');

test.each(PAGES)('%s: every relative link points at a file', (page) => {
  const markdown = fs.readFileSync(path.join(ROOT, page), 'utf8');
  const missing = relativeLinks(markdown).filter(
    (href) => href && !fs.existsSync(path.resolve(path.dirname(path.join(ROOT, page)), href)),
  );
  expect(missing).toEqual([]);
});

const EXERCISES = PAGES.filter((p) => /^docs\/exercise-.*\.md$/.test(p));

test.each(EXERCISES)(
  '%s draws its request path in Mermaid: client, frontends, backend, Redis, TLS',
  (page) => {
    const diagrams = fencedBlocks(fs.readFileSync(path.join(ROOT, page), 'utf8')).filter(
      (b) => b.lang === 'mermaid',
    );
    expect(diagrams).toHaveLength(1);
    const [diagram] = diagrams;
    expect(diagram.text).toMatch(/^flowchart (LR|TD|TB)\n/);
    expect(diagram.text).toMatch(/frontend (public|public_ssl)\b/);
    expect(diagram.text).toMatch(/be_[a-z_]+/);
    expect(diagram.text).toMatch(/Redis/);
    expect(diagram.text).toMatch(/TLS/);
    // Edge labels in the pipe form only: the form every Mermaid renderer takes.
    expect(diagram.text).not.toMatch(/ -- "| -\. "/);
  },
);
