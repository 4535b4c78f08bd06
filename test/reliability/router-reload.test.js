'use strict';
// lab:reload and the router-reload scenario against a real lab: HAProxy hands its listening
// sockets to the new process (-x) and the old one finishes (-sf), so a steady k6 load through
// every termination, keep-alive and close, loses no request across reloads.
const fs = require('node:fs');
const path = require('node:path');
const tls = require('node:tls');
const { once } = require('node:events');
const lab = require('../../lib/lab/index');
const { isAlive } = require('../../lib/core/processes');
const { listRecords } = require('../../lib/lab/common/pids');
const { showInfo } = require('../../lib/lab/haproxy/runtime-api');
const { adminSocket } = require('../../lib/lab/template-router/reload');
const { readDocument } = require('../../lib/results-model/reliability');
const { useLab, whoami, useTempDir, runScenarios } = require('../lab/helpers');

jest.setTimeout(180000);

describe('router reload (real HAProxy, real k6)', () => {
  // A lab of its own: it counts reloads from a fresh lab, and its last test takes the lab down.
  const lab$ = useLab({ LAB_REPLICAS: '1' });
  const { env } = lab$;
  const dir = useTempDir('rlab-reliability-');

  test('a reload starts a new HAProxy that serves, and the old one exits once it has finished', async () => {
    const before = lab.readLabState(env.LAB_DIR).router.pid;
    const done = await lab.reload({ env });
    expect(done.pid).not.toBe(before);
    expect(done.oldPids).toEqual([before]);
    expect(Number((await showInfo(adminSocket(env.LAB_DIR))).Pid)).toBe(done.pid);
    expect(lab.readLabState(env.LAB_DIR).router).toMatchObject({ pid: done.pid, reloads: 1 });
    expect((await whoami(lab.readLabState(env.LAB_DIR), 'edge')).instance).toBe('data-service-1');
    for (let i = 0; i < 50 && isAlive(before); i++) await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(before)).toBe(false);
    // lab:status forgets a finished old process instead of reporting it dead.
    expect((await lab.status({ env })).running).toBe(true);
    expect(
      listRecords(env.LAB_DIR)
        .filter((r) => r.role === 'router')
        .map((r) => r.pid),
    ).toEqual([done.pid]);
  });

  test('without socket handover (comparison only) the new process binds its own sockets and serves', async () => {
    const before = lab.readLabState(env.LAB_DIR).router.pid;
    const done = await lab.reload({ env, handover: false });
    expect(done.pid).not.toBe(before);
    expect(Number((await showInfo(adminSocket(env.LAB_DIR))).Pid)).toBe(done.pid);
    expect((await whoami(lab.readLabState(env.LAB_DIR), 'http')).instance).toBe('data-service-1');
  });

  test('a configuration HAProxy rejects changes nothing: the running router keeps serving', async () => {
    const state = lab.readLabState(env.LAB_DIR);
    const broken = { ...state, router: { ...state.router, threads: 0 } };
    fs.writeFileSync(path.join(env.LAB_DIR, 'lab.json'), JSON.stringify(broken));
    try {
      await expect(lab.reload({ env })).rejects.toThrow(/haproxy -c rejected/);
    } finally {
      fs.writeFileSync(path.join(env.LAB_DIR, 'lab.json'), JSON.stringify(state));
    }
    expect(isAlive(state.router.pid)).toBe(true);
    expect(Number((await showInfo(adminSocket(env.LAB_DIR))).Pid)).toBe(state.router.pid);
  });

  // Passthrough (a TCP tunnel), for the suite's time: edge (the router ends TLS, HTTP mode) runs
  // in the guide's reliability exercise (test/guide/), and npm run reliability -- --quick runs all four.
  test('reloads under a steady load through passthrough, keep-alive and close: zero failed', async () => {
    const opts = {
      rate: 50,
      reloads: 2,
      reloadIntervalMs: 300,
      terminations: ['passthrough'],
    };
    const lines = [];
    const { doc } = await runScenarios(['router-reload'], opts, {
      env,
      dir,
      log: (line) => lines.push(line),
    });
    const [scenario] = doc.scenarios;
    expect(scenario.cases.map((c) => c.name)).toEqual(['passthrough:keepalive', 'passthrough:close']);
    for (const c of scenario.cases) {
      expect(c.injected).toHaveLength(2);
      expect(c.load.requests).toBeGreaterThan(50);
      expect({ case: c.name, errors: c.errors }).toEqual({ case: c.name, errors: {} });
    }
    expect(scenario.verdict).toMatchObject({ pass: true, reasons: [] });
    expect(readDocument(dir)).toEqual(doc);
    expect(fs.readFileSync(path.join(dir, 'reliability.md'), 'utf8')).toMatch(
      /Router reload under load: PASS/,
    );
    expect(lines.join('\n')).toMatch(/PASS/);
    const html = fs.readFileSync(path.join(dir, 'reliability.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<h2>Router reload under load</h2>');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  });

  test('an old process keeps a passthrough connection until it ends; lab:down stops it too', async () => {
    const state = lab.readLabState(env.LAB_DIR);
    const passthrough = state.routes.find((r) => r.termination === 'passthrough');
    // An open TLS tunnel through the router: the old process must keep it, not cut it.
    const socket = tls.connect({
      host: '127.0.0.1',
      port: state.router.httpsPort,
      servername: passthrough.host,
      rejectUnauthorized: false,
    });
    await once(socket, 'secureConnect');
    const old = state.router.pid;
    const done = await lab.reload({ env });
    await new Promise((r) => setTimeout(r, 300));
    expect(isAlive(old)).toBe(true);
    expect(socket.destroyed).toBe(false);
    await lab.down({ env, log: () => {} });
    expect([isAlive(old), isAlive(done.pid)]).toEqual([false, false]);
    socket.destroy();
  });
});
