'use strict';
// npm run sizing against the fixture run: the bank's question answered for any target, from the
// run's measured costs, and bad input refused by name.
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');

const FIXTURE_DIR = path.join(ROOT, 'test', 'fixtures', 'matrix-results');
const sizing = (...args) =>
  spawnSync(process.execPath, [path.join(ROOT, 'bin', 'sizing.js'), ...args], { encoding: 'utf8' });

test('the run’s own target by default: the bank’s 5000 TPS, every cell, with its assumptions', () => {
  const run = sizing(FIXTURE_DIR);
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/^Sizing for 5000 TPS from run /);
  expect(run.stdout).toMatch(/edge:1k:close:full\s+6\s+3\s+6\s+–/);
  expect(run.stdout).toMatch(/not a cluster measurement/);
});

test('another target and headroom scale the answer; --json gives the same figures as data', () => {
  const json = JSON.parse(sizing(FIXTURE_DIR, '--tps', '20000', '--headroom', '0', '--json').stdout);
  expect(json).toMatchObject({ tps: 20000, headroom: 0 });
  const edgeClose = json.cells.find((c) => c.name === 'edge:1k:close:full');
  // 20000 req/s at the fixture's 760.5 µs of router CPU each: 15.2 cores, so 16.
  expect(edgeClose.routerCores).toBe(16);
});

test('a bad target or a directory without results is refused, naming it', () => {
  const bad = sizing(FIXTURE_DIR, '--tps', '0');
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/--tps must be a number ≥ 1, got "0"/);
  const missing = sizing(path.join(FIXTURE_DIR, 'nope'));
  expect(missing.status).toBe(1);
  expect(missing.stderr).toMatch(/nope.results\.json does not exist/);
});
