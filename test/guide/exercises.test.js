'use strict';
// The lab guide, run (pages.js): every page but those on the lab with pods, which
// test/node/pods-lab.test.js runs first, on the lab its own tests use.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');
const { GUIDE_PAGES, INDEX_ORDER, RUN_ORDER, endsOnPods, testPages } = require('./pages');

test('the guide’s index lists every page with exercise blocks, every exercise page among them', () => {
  expect([...INDEX_ORDER].sort()).toEqual([...GUIDE_PAGES].sort());
  const exercises = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => /^exercise-.*\.md$/.test(f));
  expect(exercises.filter((p) => !GUIDE_PAGES.includes(p))).toEqual([]);
});

testPages(RUN_ORDER.filter((p) => !endsOnPods(p)));
