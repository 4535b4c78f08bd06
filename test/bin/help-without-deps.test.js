'use strict';
// A fresh clone before `npm ci`: the project copied without any node_modules, every command's
// --help works, and a command that needs a package that is missing says what to run (exit 2),
// not a stack trace (lib/core/dependency.js).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');
const { INSTALL } = require('../../lib/core/dependency');

// What a clone has; node_modules anywhere, and what setup, the lab and runs leave, are not copied.
const NOT_IN_A_CLONE = new Set(['node_modules', '.git', '.tools', '.lab', 'results']);

const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'fresh-clone-'));
afterAll(() => fs.rmSync(clone, { recursive: true, force: true }));
fs.cpSync(ROOT, clone, {
  recursive: true,
  filter: (source) => !NOT_IN_A_CLONE.has(path.basename(source)) || source === ROOT,
});

const COMMANDS = fs.readdirSync(path.join(clone, 'bin')).filter((f) => f.endsWith('.js'));

// No NODE_PATH, and a HOME of the clone's own: Node's global folders ($HOME/.node_modules) hold nothing.
const env = { PATH: process.env.PATH, HOME: clone, LAB_DIR: path.join(clone, '.lab') };
const run = (command, args) =>
  spawnSync(process.execPath, [path.join(clone, 'bin', command), ...args], {
    cwd: clone,
    encoding: 'utf8',
    env,
    timeout: 30000,
  });

test('the copy has no node_modules to find', () => {
  const found = spawnSync(process.execPath, ['-e', "require.resolve('js-yaml')"], { cwd: clone, env });
  expect(found.status).not.toBe(0);
  expect(COMMANDS.length).toBeGreaterThanOrEqual(17);
});

test.each(COMMANDS)('%s --help works before npm ci', (command) => {
  const r = run(command, ['--help']);
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  expect(r.stdout).toMatch(/^Usage: /);
});

test('a command that needs a missing package says what to run, exit 2, no stack', () => {
  const r = run('report.js', [path.join(clone, 'test', 'fixtures', 'matrix-results')]);
  expect(r.status).toBe(2);
  expect(r.stderr).toBe(`report: ajv is not installed: ${INSTALL}\n`);
});
