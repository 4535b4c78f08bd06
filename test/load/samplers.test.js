'use strict';
// The samplers that run beside a load (CPU, the router's counters, route-scale's HAProxy watch)
// never hold a command open: one an error or Ctrl-C left unstopped kept route-scale running after
// it had said "interrupted". A real Node process starts each and stops none.
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');

test('a process that leaves its samplers running still exits', () => {
  const script = `
    const { startCpuMonitor } = require('./lib/load/cpu-monitor');
    const { startRouterCounters } = require('./lib/load/router-counters');
    const { watchHaproxy } = require('./lib/route-scale/haproxy-watch');
    startCpuMonitor({ self: process.pid }, { intervalMs: 50 });
    startRouterCounters(async () => ({}), { intervalMs: 50 });
    watchHaproxy(process.pid, { intervalMs: 50 });
    setTimeout(() => console.log('sampled'), 200);
  `;
  const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 10000 });
  expect({ signal: run.signal, status: run.status, stdout: run.stdout.trim(), stderr: run.stderr }).toEqual({
    signal: null,
    status: 0,
    stdout: 'sampled',
    stderr: '',
  });
});
