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
