'use strict';
// The lab's knobs (lib/lab/common/options.js) and LAB_CPUS placement: defaults, refusals that name the
// variable, and cores checked against those this process may use.
const { resolveLabOptions } = require('../../lib/lab/common/options');
const { parsePlacement } = require('../../lib/lab/common/placement');

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
    [{ LAB_OPENSHIFT_RELEASE: '4.9' }, /LAB_OPENSHIFT_RELEASE must be one of 4\.16, .*5\.0, got "4\.9"/],
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
});

describe('LAB_ROUTES', () => {
  test('fewer than the four Routes names the knob; any count on either router', () => {
    expect(() => resolveLabOptions({ LAB_ROUTES: '3' })).toThrow(/LAB_ROUTES/);
    expect(resolveLabOptions({ LAB_ROUTES: '8' }).routes).toBe(8);
    expect(resolveLabOptions({ LAB_ROUTES: '1000', LAB_ROUTER: 'openshift' }).routes).toBe(1000);
  });
});

describe('no work on require', () => {
  test('the knobs read no file until they are resolved; the fsync default is still the manifests’', () => {
    const fs = require('node:fs');
    const read = jest.spyOn(fs, 'readFileSync');
    try {
      jest.isolateModules(() => {
        const fresh = require('../../lib/lab/common/options');
        expect(read).not.toHaveBeenCalled();
        expect(fresh.resolveLabOptions({}).redisFsync).toBe(fresh.manifestFsync());
        expect(read).toHaveBeenCalled();
      });
    } finally {
      read.mockRestore();
    }
  });

  test('knobs of the real router are refused with the template router, by name', () => {
    expect(() => resolveLabOptions({ LAB_ROUTER_DCM: 'true' })).toThrow(
      /^LAB_ROUTER_DCM is for LAB_ROUTER=openshift only$/,
    );
    expect(() => resolveLabOptions({ LAB_ROUTER_HARD_STOP_AFTER: '30' })).toThrow(
      /^LAB_ROUTER_HARD_STOP_AFTER is for LAB_ROUTER=openshift only$/,
    );
    expect(resolveLabOptions({ LAB_ROUTER_DCM: 'false' }).configManager).toBe(false);
  });
});
