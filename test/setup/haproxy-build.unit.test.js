'use strict';
// Which HAProxy setup builds: OpenShift 5.0's branch (3.2) by default, the 3.0 LTS branch for the
// tests, the OpenSSL 3.5 build only on request; and the lines `haproxy -vv` names its TLS library with.
const { HAPROXY_PINS, HAPROXY_PIN, PINNED_BIN, SSL_LIBRARY_LINES } = require('../../lib/setup/haproxy-build');
const { OPENSSL_PIN, OPENSSL_VERSION } = require('../../lib/setup/openssl-build');
const { upstreamVersion } = require('../../lib/setup/debian-source');
const { TOOLS } = require('../../lib/setup/registry');
const { EXTRAS } = require('../../lib/setup/install');

test('the router HAProxy is pinned to 3.2 (a known version, its checksum) and built by every lab level', () => {
  expect(HAPROXY_PIN).toBe(HAPROXY_PINS['3.2']);
  expect(upstreamVersion(HAPROXY_PIN.debianVersion)).toMatch(/^3\.2\.\d+$/);
  expect(HAPROXY_PIN.origSha256).toMatch(/^[0-9a-f]{64}$/);
  expect(HAPROXY_PIN.bin).toBe(PINNED_BIN);
  expect(upstreamVersion(HAPROXY_PINS['3.0'].debianVersion)).toMatch(/^3\.0\.\d+$/);
  for (const pin of Object.values(HAPROXY_PINS)) {
    expect(pin.makeFlags).toEqual(expect.arrayContaining(['USE_OPENSSL=1', 'USE_PCRE2=1', 'USE_PROMEX=1']));
  }
  const router = TOOLS.find((t) => t.name.includes('(router build)'));
  expect(router).toMatchObject({ neededFor: 'lab' });
  expect(router.name).toContain(upstreamVersion(HAPROXY_PIN.debianVersion));
});

test('3.0, 2.8 and 3.4 are built for the tests (where they can be) and on request; OpenSSL 3.5 only when asked for', () => {
  const extra = TOOLS.filter((t) => t.extra);
  expect(extra.map((t) => [t.extra, t.neededFor])).toEqual([
    ['haproxy-3.0', 'test'],
    ['haproxy-2.8', 'test'],
    ['haproxy-3.4', 'test'],
    ['openssl-3.5', undefined],
  ]);
  expect(EXTRAS).toEqual(['haproxy-3.0', 'haproxy-2.8', 'haproxy-3.4', 'openssl-3.5']);
  expect(OPENSSL_PIN).toMatchObject({ release: 'trixie', source: 'openssl' });
  expect(OPENSSL_VERSION).toMatch(/^3\.5\.\d+$/);
});

test('the TLS library line is read as 3.0 and as 3.2 print it', () => {
  const v30 = 'Running on OpenSSL version : OpenSSL 3.0.19 27 Jan 2026';
  const v32 = 'Running on SSL library version : OpenSSL 3.5.7 1 Oct 2026';
  expect(SSL_LIBRARY_LINES.running.exec(v30)[1]).toBe('OpenSSL 3.0.19 27 Jan 2026');
  expect(SSL_LIBRARY_LINES.running.exec(v32)[1]).toBe('OpenSSL 3.5.7 1 Oct 2026');
  expect(SSL_LIBRARY_LINES.builtWith.exec('Built with SSL library version : OpenSSL 3.0.19')[1]).toBe(
    'OpenSSL 3.0.19',
  );
});
