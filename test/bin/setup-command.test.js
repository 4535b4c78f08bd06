'use strict';
// npm run setup as a user runs it: what --check reports, and a bad level refused by name.
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');

test('setup --check reports every service tool with its version and path', () => {
  const out = execFileSync(
    process.execPath,
    [path.join(ROOT, 'bin/setup.js'), '--for', 'service', '--check'],
    {
      encoding: 'utf8',
    },
  );
  expect(out).toMatch(/✓ redis-server\s+\d+\.\d+\.\d+\s+\/\S+redis-server/);
  expect(out).toMatch(/✓ npm dependencies \(data-service\)/);
});

test('setup refuses an unknown level with a message that names it', () => {
  let error;
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'bin/setup.js'), '--for', 'everything'], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (err) {
    error = err;
  }
  expect(error.status).toBe(2);
  expect(error.stderr).toContain('--for must be one of service, lab, test, openshift, got "everything"');
});
