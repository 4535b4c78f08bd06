'use strict';
// "router" from positive evidence, on real measurements: the lab's router pinned to one core
// (LAB_CPUS router=<core>, so one thread) while full TLS handshakes arrive faster than it can do
// them, from `openssl s_time -new` clients (C, far cheaper per handshake than k6, which on two
// cores cannot outpace even one router core) pinned to the other cores. Its CPU, sampled as the
// matrix samples it, makes the verdict "router"; the idle case is in lab-matrix.test.js.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { allowedCoreList, formatCpuList } = require('../../lib/core/cpus');
const { requireTool } = require('../../lib/core/tools');
const { startChild, pinned } = require('../../lib/core/processes');
const { startCpuMonitor } = require('../../lib/load/cpu-monitor');
const { routerVerdict } = require('../../lib/results-model/verdicts');
const { routerCores } = require('../../lib/results-model/derived');
const { describeEnvironment } = require('../../lib/matrix/environment');
const lab = require('../../lib/lab/index');

jest.setTimeout(120000);

const cores = allowedCoreList();
const labDir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-verdict-'));
const env = {
  ...process.env,
  LAB_DIR: labDir,
  LAB_HTTP_PORT: '0',
  LAB_HTTPS_PORT: '0',
  LAB_STATS_PORT: '0',
  LAB_SERVICE_BASE_PORT: '0',
  LAB_REDIS_PORT: '0',
  LAB_CPUS: `router=${cores[0]},service=${cores[1]},redis=${cores[1]}`,
};

// Two cores at least: one for the router, the other for everything else.
const twoCores = cores.length >= 2 ? describe : describe.skip;

twoCores('a router pinned to one core and busy with full handshakes', () => {
  let state;
  beforeAll(async () => {
    state = await lab.up({ env, log: () => {} });
  });
  afterAll(async () => {
    await lab.down({ env, log: () => {} });
    fs.rmSync(labDir, { recursive: true, force: true });
  });

  test('is judged "router", from its own CPU against the cores its threads can use', async () => {
    const others = formatCpuList(cores.slice(1));
    const clients = Array.from({ length: 16 }, () =>
      startChild(
        ...pinned(
          requireTool('openssl'),
          ['s_time', '-connect', `127.0.0.1:${state.router.httpsPort}`, '-new', '-time', '8'],
          others,
        ),
      ),
    );
    try {
      await sleep(1500);
      const monitor = startCpuMonitor({ router: state.router.pid });
      await sleep(4000);
      monitor.stop();
      const routerCpuCores = monitor.result().cores.router;
      const router = routerCores(
        describeEnvironment({ k6: 'k6', lab: state, opts: {}, target: { mode: 'lab' } }),
      );
      expect(router).toEqual({ threads: 1, allowedCores: 1 });
      const verdict = routerVerdict({ routerCpuCores, ...router });
      expect({ routerCpuCores, saturated: verdict.saturated }).toEqual({
        routerCpuCores: expect.any(Number),
        saturated: true,
      });
      expect(verdict.reasons[0]).toMatch(/of the 1 core\(s\) its 1 thread\(s\) can use/);
    } finally {
      await Promise.all(clients.map((c) => c.stop()));
    }
  });
});
