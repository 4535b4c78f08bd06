'use strict';
// What lab:up refuses, and how it says so: ports in use, bad knobs, missing tools, a file
// descriptor limit too low for maxconn, and the ephemeral port range.
const fs = require('node:fs');
const net = require('node:net');
const { execFileSync } = require('node:child_process');
const lab = require('../../lib/lab/index');
const { resolveLabOptions } = require('../../lib/lab/options');
const { parsePlacement } = require('../../lib/lab/placement');
const { fitMaxconn, checkTools, checkEphemeralPorts } = require('../../lib/lab/preflight');
const { listRecords } = require('../../lib/lab/pids');
const { freePort } = require('../../lib/core/ports');
const { allowedCoreList } = require('../../lib/core/cpus');
const { findTool } = require('../../lib/core/tools');
const { labEnv } = require('./helpers');

const twoCores = allowedCoreList().length >= 2;
// Resolves the knobs in a child process (run under taskset) and prints the placement or the error.
const RESOLVE_PLACEMENT = `
  const { resolveLabOptions } = require(${JSON.stringify(require.resolve('../../lib/lab/options'))});
  try { console.log(JSON.stringify(resolveLabOptions(process.env).placement)); }
  catch (err) { console.log(JSON.stringify({ error: err.message })); }`;

describe('lab:up with a port already taken', () => {
  let blocker;
  let port;
  const env = labEnv();

  beforeAll(async () => {
    port = await freePort();
    blocker = net.createServer();
    await new Promise((resolve) => blocker.listen(port, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    fs.rmSync(env.LAB_DIR, { recursive: true, force: true });
  });

  test.each([
    ['LAB_HTTP_PORT', 'router HTTP'],
    ['LAB_STATS_PORT', 'router stats'],
    ['LAB_SERVICE_BASE_PORT', 'data-service-1 HTTP'],
  ])('%s: the message names the port, its use and the knob; nothing starts', async (knob, what) => {
    const attempt = lab.up({ env: { ...env, [knob]: String(port) }, log: () => {} });
    await expect(attempt).rejects.toThrow(`port ${port} (${what}) is already in use`);
    await expect(attempt).rejects.toThrow(`${knob}=<port>`);
    expect(listRecords(env.LAB_DIR)).toEqual([]);
    expect(lab.readLabState(env.LAB_DIR)).toBeNull();
  });
});

describe('knobs', () => {
  test('defaults follow the contract (docs/contract.md) and OpenShift 4', () => {
    const opts = resolveLabOptions({ LAB_DIR: '/tmp/x' });
    expect(opts).toMatchObject({
      labDir: '/tmp/x',
      ports: { http: 9080, https: 9443, stats: 1936 },
      replicas: 2,
      redisMode: 'standalone',
      maxconn: 50000,
      // No override: the passthrough Route's balance annotation decides.
      passthroughBalance: null,
      http2: false,
      openshiftRelease: '4.22',
      placement: null,
    });
    expect(opts.threads).toBe(Math.min(4, opts.cpuCount));
  });

  test.each([
    [{ LAB_REPLICAS: 'two' }, /LAB_REPLICAS must be an integer from 1 to 16, got "two"/],
    [{ LAB_REDIS: 'sentinel' }, /LAB_REDIS must be one of standalone, cluster/],
    [
      { LAB_PASSTHROUGH_BALANCE: 'first' },
      /LAB_PASSTHROUGH_BALANCE must be one of random, source, roundrobin, leastconn/,
    ],
    [
      { LAB_ROUTER_HTTP2: 'maybe' },
      /LAB_ROUTER_HTTP2 must be true or false \(also yes\/no, on\/off, 1\/0\), got "maybe"/,
    ],
    [{ LAB_OPENSHIFT_RELEASE: '4.9' }, /LAB_OPENSHIFT_RELEASE must be one of 4\.16, .*4\.22, got "4\.9"/],
    [
      { LAB_HAPROXY: '/nonexistent/haproxy' },
      /LAB_HAPROXY: \/nonexistent\/haproxy is not an executable file/,
    ],
    [{ LAB_HTTP_PORT: '70000' }, /LAB_HTTP_PORT must be an integer from 0 to 65535/],
    [{ LAB_HTTP_PORT: '9443' }, /LAB_HTTPS_PORT \(9443\) is the same port as LAB_HTTP_PORT/],
    [{ LAB_CPUS: 'router=999' }, /LAB_CPUS names core 999, but this process may run on cores \d/],
    [{ LAB_CPUS: 'gpu=0' }, /LAB_CPUS has an unknown role "gpu"/],
  ])('%j is refused with a message naming the variable', (env, message) => {
    expect(() => resolveLabOptions(env)).toThrow(message);
  });

  test('LAB_CPUS places roles on cores and leaves the rest free', () => {
    expect(parsePlacement('router=0-1,service=2,3,redis=3', [0, 1, 2, 3, 4, 5])).toEqual({
      router: [0, 1],
      service: [2, 3],
      redis: [3],
      free: [4, 5],
    });
    expect(parsePlacement(undefined, [0, 1])).toBeNull();
  });

  test('on a restricted cpuset (cores 2-3) LAB_CPUS takes those cores and only those', () => {
    const allowed = [2, 3];
    expect(parsePlacement('router=2,service=3,redis=3', allowed)).toEqual({
      router: [2],
      service: [3],
      redis: [3],
      free: [],
    });
    // Free cores are allowed cores, not 0..count-1.
    expect(parsePlacement('router=3', allowed).free).toEqual([2]);
    expect(() => parsePlacement('router=0', allowed)).toThrow(
      'LAB_CPUS names core 0, but this process may run on cores 2-3 only',
    );
    expect(() => parsePlacement('router=1-2', allowed)).toThrow('names core 1, but');
    // A hole in the list (cores 0,2) is a hole: core 1 is refused although 1 < 2.
    expect(() => parsePlacement('service=1', [0, 2])).toThrow('may run on cores 0,2 only');
    expect(() => parsePlacement('router=3-2', allowed)).toThrow('LAB_CPUS has a backwards core range "3-2"');
    expect(() => parsePlacement('router=x', allowed)).toThrow('LAB_CPUS has a bad core list item "x"');
  });

  test('resolveLabOptions checks LAB_CPUS against the allowed cores it is given', () => {
    const opts = resolveLabOptions({ LAB_CPUS: 'router=2-3' }, { allowedCores: [2, 3] });
    expect(opts.placement).toMatchObject({ router: [2, 3], free: [] });
    expect(opts).toMatchObject({ cpuCount: 2, threads: 2 });
    expect(() => resolveLabOptions({ LAB_CPUS: 'router=1' }, { allowedCores: [2, 3] })).toThrow(
      /LAB_CPUS names core 1/,
    );
  });

  (findTool('taskset') && twoCores ? test : test.skip)(
    'under taskset on the last core only, LAB_CPUS may name that core and no other',
    () => {
      const last = allowedCoreList().at(-1);
      const first = allowedCoreList()[0];
      const resolve = (cpus) =>
        execFileSync(findTool('taskset'), ['-c', String(last), process.execPath, '-e', RESOLVE_PLACEMENT], {
          env: { ...process.env, LAB_CPUS: cpus },
          encoding: 'utf8',
        });
      expect(JSON.parse(resolve(`router=${last}`))).toEqual({
        router: [last],
        service: [],
        redis: [],
        free: [],
      });
      expect(JSON.parse(resolve(`router=${first}`))).toEqual({
        error: `LAB_CPUS names core ${first}, but this process may run on cores ${last} only; expected e.g. router=0,service=1,redis=1 (roles: router, service, redis)`,
      });
    },
  );
});

describe('preflight', () => {
  test('maxconn is lowered to what the open-files limit holds, and the message says how to raise it', () => {
    const fit = fitMaxconn(50000, { soft: 1024, hard: 20000 });
    expect(fit.maxconn).toBe(9750);
    expect(fit.warning).toMatch(/maxconn lowered from 50000 to 9750: the open-files hard limit is 20000/);
    expect(fit.warning).toMatch(/2 file descriptors per connection/);
    expect(fit.warning).toMatch(/ulimit -n 100500/);
    expect(fitMaxconn(50000, { soft: 1024, hard: 1048576 })).toEqual({ maxconn: 50000 });
  });

  test('HAProxy 2.6 and newer is accepted; older is refused; a major OpenShift never ran is warned about', () => {
    const { checkHaproxyVersion } = require('../../lib/lab/haproxy');
    const at = (version) => checkHaproxyVersion({ path: '/x/haproxy', version });
    expect(at('2.6.12')).toEqual({});
    expect(at('3.2.0')).toEqual({});
    expect(at('2.4.22').errors[0]).toMatch(
      /haproxy 2\.4\.22 at \/x\/haproxy is too old: the lab needs 2\.6\.0/,
    );
    expect(at('4.0.0').warnings[0]).toMatch(/OpenShift's router has run 2\.x and 3\.x only/);
  });

  test('a missing tool is reported with how to install it', () => {
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const errors = checkTools({ placement: { router: [0] } });
      expect(errors).toContain(
        "haproxy is not installed (looked in .tools/bin and on PATH): run 'npm run setup -- --for lab'",
      );
      expect(errors.join('\n')).toMatch(/LAB_CPUS is set but taskset is not installed/);
    } finally {
      process.env.PATH = saved;
    }
  });

  test('the ephemeral port range is read and explained', () => {
    const [low, high] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    const { notes = [], warnings = [] } = checkEphemeralPorts();
    const text = [...notes, ...warnings].join('\n');
    expect(text).toContain(`ephemeral ports ${low}-${high} (${high - low + 1})`);
    expect(text).toMatch(/TIME_WAIT/);
    if (high - low + 1 < 28232) expect(text).toMatch(/sysctl -w net.ipv4.ip_local_port_range/);
  });
});
