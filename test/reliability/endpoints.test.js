'use strict';
// Endpoint changes as the OpenShift router sees them, on a real lab: lab:rollout --via-reload
// takes each instance out of HAProxy's configuration by a reload, restarts it and puts it back
// by another, while k6 runs through every termination: no request may fail.
const lab = require('../../lib/lab/index');
const { runReliability, selectScenarios } = require('../../lib/reliability/run');
const { useLab, quietLog, useTempDir, runScenarios } = require('../lab/helpers');

jest.setTimeout(180000);

describe('endpoint changes through reloads (real HAProxy, real k6)', () => {
  // A lab of its own: the one other file with these knobs, lab.test.js, runs first and takes its lab down.
  const lab$ = useLab({ LAB_CHECK_INTERVAL_MS: '500' });
  const dir = useTempDir('rlab-endpoints-');

  test('each instance out and back in by reloads under load: zero failed, every instance replaced', async () => {
    const before = lab.readLabState(lab$.env.LAB_DIR);
    const opts = { rate: 30, terminations: ['http', 'edge', 'passthrough', 'reencrypt'] };
    const { doc } = await runScenarios(['endpoints'], opts, { env: lab$.env, dir });
    const [scenario] = doc.scenarios;
    for (const c of scenario.cases) {
      expect({ case: c.name, errors: c.errors }).toEqual({ case: c.name, errors: {} });
      expect(c.figures.coveredByLoad).toBe(true);
    }
    const steps = scenario.cases[0].injected.map((i) => i.what);
    expect(
      steps.filter((s) => /out of the router's configuration \(reload without it\)/.test(s)),
    ).toHaveLength(2);
    expect(steps.filter((s) => /back in the router's configuration/.test(s))).toHaveLength(2);
    expect(scenario.verdict.pass).toBe(true);
    const after = lab.readLabState(lab$.env.LAB_DIR);
    expect(after.router.reloads).toBe(4);
    after.instances.forEach((inst, i) => expect(inst.pid).not.toBe(before.instances[i].pid));
    expect((await lab.status({ env: lab$.env })).running).toBe(true);
  });

  test('Ctrl-C in the middle of the rollout: every instance running and back in the router', async () => {
    const controller = new AbortController();
    // 1.5 s lead-in, then the first instance is out of the configuration and draining.
    setTimeout(() => controller.abort(), 2500);
    await expect(
      runReliability({
        scenarios: selectScenarios(['endpoints']),
        opts: { rate: 20, terminations: ['http'] },
        env: lab$.env,
        dir,
        runId: 'test',
        log: quietLog(),
        signal: controller.signal,
      }),
    ).rejects.toThrow(/abort/i);
    const { waitUntil } = require('../../lib/lab/common/stack');
    await waitUntil(async () => (await lab.status({ env: lab$.env })).running, {
      timeoutMs: 20000,
      what: 'the lab healthy again',
    });
    const status = await lab.status({ env: lab$.env });
    expect(status.servers.rows).toHaveLength(8); // 4 backends × 2 instances: both back in the configuration
  });
});
