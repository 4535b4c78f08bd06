'use strict';
// lib/core/paths.js: the one list of overlays is the overlays/ directory's; where results go.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, OVERLAYS, resultsDir, runDir } = require('../../lib/core/paths');

test('OVERLAYS names every overlay under overlays/ (components are not overlays)', () => {
  const dirs = fs
    .readdirSync(path.join(ROOT, 'overlays'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'components')
    .map((d) => d.name);
  expect([...OVERLAYS].sort()).toEqual(dirs.sort());
});

test('runs write to results/ unless ROUTER_LAB_RESULTS names another directory', () => {
  expect(resultsDir({})).toBe(path.join(ROOT, 'results'));
  expect(resultsDir({ ROUTER_LAB_RESULTS: '/tmp/elsewhere/' })).toBe('/tmp/elsewhere');
});

test("a run's folder is its --out when given, else its name in the results folder", () => {
  expect(runDir('rel/out', 'matrix-1', {})).toBe(path.resolve('rel/out'));
  expect(runDir(undefined, 'matrix-1', {})).toBe(path.join(ROOT, 'results', 'matrix-1'));
  expect(runDir(null, 'compare-a-b', { ROUTER_LAB_RESULTS: '/tmp/r' })).toBe('/tmp/r/compare-a-b');
});
