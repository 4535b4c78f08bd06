'use strict';
// Exhaustion against a real lab: maxconn far below the offered connections, close mode with TIME_WAIT
// counted, and (as root) ports run out in a namespace of the scenario's own. Each case names the cause
// and the fix, and leaves the lab as it was.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const lab = require('../../lib/lab/index');
const { showInfo } = require('../../lib/lab/haproxy/runtime-api');
const { adminSocket } = require('../../lib/lab/template-router/reload');
const { sharedLab, useTempDir, runScenarios } = require('../lab/helpers');
const { netnsSupport } = require('../../lib/core/netns');

jest.setTimeout(120000);

describe('exhaustion (real HAProxy, real k6)', () => {
  // The run's shared one-replica lab: the scenario restores maxconn (the second test checks it).
  const lab$ = sharedLab({ LAB_REPLICAS: '1' });
  const dir = useTempDir('rlab-exhaustion-');

  test('a reload may change maxconn only, to a valid value', async () => {
    await expect(lab.reload({ env: lab$.env, overrides: { threads: 1 } })).rejects.toThrow(
      /cannot change 'threads'/,
    );
    await expect(lab.reload({ env: lab$.env, overrides: { maxconn: 0 } })).rejects.toThrow(
      /cannot set maxconn to 0/,
    );
  });

  test('maxconn reached and explained; TIME_WAIT counted and explained; maxconn restored', async () => {
    const original = lab.readLabState(lab$.env.LAB_DIR).router.maxconn;
    const opts = { exhaustMaxconn: 5, exhaustConnections: 40, exhaustRate: 300, exhaustSeconds: 3 };
    const { doc } = await runScenarios(['exhaustion'], opts, { env: lab$.env, dir });
    const [scenario] = doc.scenarios;
    const [maxconn, ports, narrow] = scenario.cases;
    expect(maxconn.figures.router).toMatchObject({ maxconn: 5, currConnsPeak: 5 });
    expect(maxconn.figures.diagnosis).toMatch(/^router maxconn reached: HAProxy held 5 connections/);
    expect(maxconn.figures.diagnosis).toMatch(/spec\.tuningOptions\.maxConnections/);
    expect(maxconn.load.requests).toBeGreaterThan(100);
    expect(ports.figures.ports.range).toBeGreaterThan(0);
    expect(ports.figures.ports.timeWaitPeak).toBeGreaterThan(0);
    expect(ports.figures.diagnosis).toMatch(/cannot assign requested address/);
    expect(ports.figures.diagnosis).toMatch(/ip_local_port_range/);
    if (netnsSupport().ok) {
      // The bank's failure, reproduced: connect() fails on the client, the router never sees it.
      expect(narrow.name).toBe(
        'ephemeral ports run out (namespace: 200 ports, tcp_tw_reuse=0, the client closes first)',
      );
      expect(narrow.figures.exhausted).toBe(true);
      expect(Object.keys(narrow.errors)).toEqual(['no response (refused, reset, timeout)']);
      expect(narrow.load.failed).toBeGreaterThan(narrow.load.requests / 2);
      expect(narrow.load.clientErrors[0]).toMatch(/connect: cannot assign requested address$/);
      expect(narrow.figures.ports.timeWaitPeak).toBeGreaterThanOrEqual(180);
      expect(narrow.figures.router.acceptedConnections).toBeLessThan(narrow.load.requests / 2);
      expect(narrow.figures.diagnosis).toMatch(/the \d+ that failed never reached it/);
      expect(narrow.figures.preflight).toMatch(
        /^ephemeral ports 50000-50199 \(200\); tcp_tw_reuse=0 .*The range is narrow/,
      );
      expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toMatch(/rlab-ports-/);
    } else {
      expect(narrow).toBeUndefined();
      expect(scenario.verdict.notes[0]).toMatch(
        /^ephemeral ports run out on purpose: not reproduced here \(needs root/,
      );
    }
    expect(scenario.verdict.pass).toBe(true);
    // The lab as it was: its own maxconn, in lab.json and in the running HAProxy.
    const state = lab.readLabState(lab$.env.LAB_DIR);
    expect(state.router.maxconn).toBe(original);
    expect(Number((await showInfo(adminSocket(lab$.env.LAB_DIR))).Maxconn)).toBe(original);
    expect(fs.readFileSync(path.join(dir, 'reliability.md'), 'utf8')).toMatch(
      /\*\*router maxconn\.\*\* router maxconn reached/,
    );
  });
});
