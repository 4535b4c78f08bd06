'use strict';
// The lab's knobs on real processes: OpenShift's default passthrough balancing (source) pins a
// client to one replica; LAB_REDIS=cluster runs six redis-server processes; threads and maxconn
// reach HAProxy. And Ctrl-C during lab:up leaves nothing running.
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const lab = require('../../lib/lab/index');
const { listRecords } = require('../../lib/lab/common/pids');
const { allowedCoreList } = require('../../lib/core/cpus');
const { request } = require('../../lib/lab/common/client');
const { isAlive } = require('../../lib/core/processes');
const { labEnv, useLab, route, whoami, labFootprint, aliveOrListening } = require('./helpers');
const { KNOBS } = require('../../lib/lab/common/options');

jest.setTimeout(120000);

// Pinning needs two cores to mean anything; on one core the placement test is skipped. The cores
// are the first two this process may use (a restricted cpuset need not include 0 or 1).
const [coreA, coreB] = allowedCoreList();
const twoCores = coreB !== undefined;

describe('LAB_PASSTHROUGH_BALANCE=source, LAB_REDIS=cluster, LAB_ROUTER_THREADS=1, LAB_MAXCONN=2000, LAB_CPUS', () => {
  const lab$ = useLab({
    LAB_PASSTHROUGH_BALANCE: 'source',
    LAB_REDIS: 'cluster',
    LAB_ROUTER_THREADS: '1',
    LAB_MAXCONN: '2000',
    ...(twoCores ? { LAB_CPUS: `router=${coreA},service=${coreB},redis=${coreB}` } : {}),
  });
  let state;
  beforeAll(() => {
    state = lab$.state;
  });

  test('balance source pins one client to one replica on passthrough, over fresh connections', async () => {
    const seen = new Set();
    for (let i = 0; i < 20; i++) seen.add((await whoami(state, 'passthrough')).instance);
    expect(seen.size).toBe(1);
    // ...while the http route (balance random, no cookie sent) still spreads the same client.
    const spread = new Set();
    for (let i = 0; i < 40 && spread.size < 2; i++) spread.add((await whoami(state, 'http')).instance);
    expect(spread.size).toBe(2);
  });

  test('the knobs reach HAProxy and lab.json', () => {
    const cfg = fs.readFileSync(state.router.config, 'utf8');
    expect(cfg).toMatch(/^ {2}nbthread 1$/m);
    expect(cfg).toMatch(/^ {2}maxconn 2000$/m);
    expect(cfg).toContain('balance source\n  hash-type consistent');
    expect(state.router).toMatchObject({ threads: 1, maxconn: 2000, passthroughBalance: 'source' });
    expect(state.redis.mode).toBe('cluster');
    expect(state.redis.ports).toHaveLength(6);
    expect(state.redis.pids.every((pid) => isAlive(pid))).toBe(true);
  });

  (twoCores ? test : test.skip)('LAB_CPUS pins the router, the instances and Redis with taskset', () => {
    const cores = (pid) =>
      /Cpus_allowed_list:\s*(\S+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1];
    expect(cores(state.router.pid)).toBe(String(coreA));
    for (const instance of state.instances) expect(cores(instance.pid)).toBe(String(coreB));
    for (const pid of state.redis.pids) expect(cores(pid)).toBe(String(coreB));
    expect(state.placement).toMatchObject({ router: [coreA], service: [coreB], redis: [coreB] });
    expect(state.router.cpus).toBe(String(coreA));
  });

  test('records are stored in the Redis cluster through the edge route', async () => {
    const edge = route(state, 'edge');
    const ca = fs.readFileSync(state.certs.labCA);
    const created = await request(`${edge.url}/api/records`, {
      method: 'POST',
      ca,
      agent: false,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer: 'c-1', balance: 10 }),
    });
    expect(created.status).toBe(201);
    const { id } = created.json();
    const read = await request(`${edge.url}/api/records/${id}`, { ca, agent: false });
    expect(read.status).toBe(200);
    expect(read.json()).toMatchObject({ id, customer: 'c-1' });
  });

  test('lab:down stops all six redis-server processes too', async () => {
    await lab.down({ env: lab$.env, log: () => {} });
    expect(await aliveOrListening(labFootprint(state))).toEqual({ alive: [], listening: [] });
  });
});

describe('the knobs on the command line', () => {
  const labUp = (env, args = []) =>
    spawnSync(process.execPath, [path.join(__dirname, '../../bin/lab-up.js'), ...args], {
      env,
      encoding: 'utf8',
    });

  test('--help lists every knob with the default the lab uses', () => {
    const env = labEnv();
    try {
      const help = labUp(env, ['--help']).stdout;
      for (const knob of KNOBS) expect(help).toContain(`  ${knob.env} (default: `);
      expect(help).toContain('LAB_REPLICAS (default: 2; 1 to 16)');
      expect(help).toContain('LAB_ROUTER_THREADS (default: min(4, router cores); 1 to 64)');
      expect(help).toContain('LAB_DRAIN_DELAY_MS (default: 4 x interval + 1000; 0 to 600000)');
    } finally {
      fs.rmSync(env.LAB_DIR, { recursive: true, force: true });
    }
  });

  test('a bad knob is a usage error (exit 2) that names the variable; nothing starts', () => {
    const env = labEnv({ LAB_REPLICAS: '17' });
    try {
      const r = labUp(env);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/lab:up: LAB_REPLICAS must be an integer from 1 to 16, got "17"/);
      expect(listRecords(env.LAB_DIR)).toEqual([]);
    } finally {
      fs.rmSync(env.LAB_DIR, { recursive: true, force: true });
    }
  });
});

describe('Ctrl-C during lab:up', () => {
  test('stops whatever was already started and exits 130', async () => {
    const env = labEnv();
    try {
      const child = spawn(process.execPath, [path.join(__dirname, '../../bin/lab-up.js')], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      let started = [];
      const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
      child.stderr.on('data', (c) => (output += c));
      await new Promise((resolve) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          // Interrupt once Redis runs and the data-service instances are being started.
          if (/data-service instance/.test(output) && !started.length) {
            started = listRecords(env.LAB_DIR).map((r) => r.pid);
            child.kill('SIGINT');
            resolve();
          }
        });
      });
      expect(await exited).toBe(130);
      expect(started.length).toBeGreaterThan(0);
      expect(started.filter((pid) => isAlive(pid))).toEqual([]);
      expect(listRecords(env.LAB_DIR)).toEqual([]);
      expect(lab.readLabState(env.LAB_DIR)).toBeNull();
      expect(output).toMatch(/Ctrl-C: stopping what was started/);
    } finally {
      try {
        await lab.down({ env, log: () => {} });
      } finally {
        fs.rmSync(env.LAB_DIR, { recursive: true, force: true });
      }
    }
  });
});
