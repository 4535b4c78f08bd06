'use strict';
// Every command answers --help (exit 0, 'Usage:') and refuses an unknown option by name (exit 2)
// before it does anything.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');

const COMMANDS = [
  ...fs
    .readdirSync(path.join(ROOT, 'bin'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `bin/${f}`),
  'data-service/bench/service.js',
];

// Should a command ever ignore its arguments, it must not touch a real lab: free ports, temp dir.
const labDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commands-'));
afterAll(() => fs.rmSync(labDir, { recursive: true, force: true }));
const env = {
  ...process.env,
  LAB_DIR: labDir,
  ...Object.fromEntries(
    ['HTTP', 'HTTPS', 'STATS', 'SERVICE_BASE', 'REDIS'].map((p) => [`LAB_${p}_PORT`, '0']),
  ),
};
const run = (command, args) =>
  spawnSync(process.execPath, [path.join(ROOT, command), ...args], { encoding: 'utf8', env, timeout: 30000 });

test('there is a command for every npm script that runs one', () => {
  expect(COMMANDS.length).toBeGreaterThanOrEqual(12);
});

test.each(COMMANDS)('%s --help prints its usage and exits 0', (command) => {
  const r = run(command, ['--help']);
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  expect(r.stdout).toMatch(/^Usage: /);
  expect(r.stdout).toMatch(/-h, --help +this text/);
});

test.each(COMMANDS)('%s refuses an unknown option by name with exit 2', (command) => {
  const r = run(command, ['--no-such-option']);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/unknown option --no-such-option/);
});
