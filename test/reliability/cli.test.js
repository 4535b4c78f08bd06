'use strict';
// npm run reliability as a user runs it (bin/reliability.js as a child process, never required):
// --help, a bad option, and Ctrl-C in the middle of a Redis outage, which must stop the load,
// start Redis again and leave the lab as it was.
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { once } = require('node:events');
const lab = require('../../lib/lab/index');
const { ROOT } = require('../../lib/core/paths');
const { redisNodeRunning } = require('../../lib/lab/faults/redis-node');
const { untilWritesSucceed } = require('../../lib/reliability/redis-outage');
const { sharedLab, useTempDir } = require('../lab/helpers');

jest.setTimeout(120000);

const BIN = path.join(ROOT, 'bin', 'reliability.js');

test('--help lists every scenario; a bad option is refused by name (exit 2)', () => {
  const help = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
  expect(help.status).toBe(0);
  for (const name of [
    'router-reload',
    'endpoints',
    'redis-kill',
    'durability',
    'hostile',
    'exhaustion',
    'soak',
  ]) {
    expect(help.stdout).toContain(name);
  }
  const bad = spawnSync(process.execPath, [BIN, '--scenarios', 'nope'], { encoding: 'utf8' });
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/--scenarios: 'nope' is not one of router-reload/);
});

describe('Ctrl-C during a fault', () => {
  // The run's shared one-replica lab: the interrupted run starts the killed Redis again (checked).
  const lab$ = sharedLab({ LAB_REPLICAS: '1' });
  const out = useTempDir('rlab-cli-');

  test('stops the writers, starts the killed Redis again, keeps what finished, exits 130', async () => {
    const child = spawn(
      process.execPath,
      [BIN, '--scenarios', 'durability', '--outage-ms', '20000', '--out', out],
      {
        env: lab$.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const deadline = Date.now() + 30000;
    while (!/SIGKILL redis-1/.test(output) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(output).toMatch(/SIGKILL redis-1/);
    expect(redisNodeRunning(lab$.env.LAB_DIR, 0)).toBe(false);
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect({ code, output }).toMatchObject({ code: 130 });
    expect(output).toMatch(/interrupted/);
    // The lab as it was: Redis back, writes acknowledged, the lab still up (this run did not start it).
    expect(redisNodeRunning(lab$.env.LAB_DIR, 0)).toBe(true);
    const state = lab.readLabState(lab$.env.LAB_DIR);
    expect(await untilWritesSucceed(state, { from: Date.now(), timeoutMs: 10000 })).not.toBeNull();
    expect((await lab.status({ env: lab$.env })).running).toBe(true);
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'reliability.json'), 'utf8'));
    expect(doc).toMatchObject({ complete: false, pass: false, scenarios: [] });
  });
});
