'use strict';
// npm run report as a user runs it: a missing results.json is named, and the exit is 1.
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');
const { useTempDir } = require('../lab/helpers');

const dir = useTempDir('report-command-');

test('npm run report names a missing results.json and exits 1', () => {
  const cli = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'report.js'), path.join(dir, 'nope')], {
    encoding: 'utf8',
  });
  expect(cli.status).toBe(1);
  expect(cli.stderr).toMatch(/nope.results\.json does not exist/);
});
