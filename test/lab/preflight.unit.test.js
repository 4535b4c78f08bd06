'use strict';
// Preflight's checks (lib/lab/common/preflight.js): maxconn against the open-files limit, the HAProxy
// version, missing tools, the ephemeral port range.
const fs = require('node:fs');
const { fitMaxconn, checkTools, checkEphemeralPorts } = require('../../lib/lab/common/preflight');

describe('preflight', () => {
  test('maxconn is lowered to what the open-files limit holds, and the message says how to raise it', () => {
    const fit = fitMaxconn(50000, { soft: 1024, hard: 20000 });
    expect(fit.maxconn).toBe(9750);
    expect(fit.warning).toMatch(/maxconn lowered from 50000 to 9750: the open-files hard limit is 20000/);
    expect(fit.warning).toMatch(/2 file descriptors per connection/);
    expect(fit.warning).toMatch(/ulimit -n 100500/);
    expect(fitMaxconn(50000, { soft: 1024, hard: 1048576 })).toEqual({ maxconn: 50000 });
    // 1,000 Routes of 2 servers each: a health-check socket per server comes off the limit too.
    expect(fitMaxconn(50000, { soft: 1024, hard: 20000 }, { servers: 2000 }).maxconn).toBe(8750);
  });

  test('HAProxy 2.6 and newer is accepted; older is refused; a major OpenShift never ran is warned about', () => {
    const { checkHaproxyVersion } = require('../../lib/lab/haproxy/binary');
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

  test("the real router's release picks its HAProxy branch; a missing build says how to make it", () => {
    const { resolveLabOptions } = require('../../lib/lab/common/options');
    const { RELEASE_PINS } = require('../../lib/setup/haproxy-release-build');
    const { HAPROXY_PIN } = require('../../lib/setup/haproxy-build');
    const cores = { allowedCores: [0, 1] };
    const on = (env) => resolveLabOptions(env, cores);
    // Whether or not this machine has built it, the default is that branch's build, never another.
    expect([RELEASE_PINS['2.8'].bin, null]).toContain(
      on({ LAB_ROUTER: 'openshift', LAB_OPENSHIFT_RELEASE: '4.22' }).haproxy,
    );
    expect(on({ LAB_ROUTER: 'openshift', LAB_OPENSHIFT_RELEASE: '4.22' }).haproxySource).toBe(
      "release-4.22's 2.8",
    );
    expect([HAPROXY_PIN.bin, null]).toContain(on({ LAB_ROUTER: 'openshift' }).haproxy);
    expect(on({ LAB_ROUTER: 'openshift' }).haproxySource).toBe("release-5.0's 3.2");
    expect(on({ LAB_ROUTER: 'openshift', LAB_HAPROXY: process.execPath }).haproxySource).toBe('LAB_HAPROXY');
    expect(on({ LAB_OPENSHIFT_RELEASE: '4.22' }).haproxySource).toBeNull();
    const errors = checkTools({ router: 'openshift', openshiftRelease: '4.22', haproxy: null });
    expect(errors[0]).toBe(
      "release-4.22's router runs on HAProxy 2.8, as its image ships it, and " +
        `${RELEASE_PINS['2.8'].bin} is not built: run 'npm run setup -- --with haproxy-2.8', ` +
        'or run it on another with LAB_HAPROXY=<path>',
    );
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
