'use strict';
// The pinned router HAProxy's source entries come from the system's own apt sources (no mirror is
// named in the project): each suite of the system's release maps to the pinned release's suite
// with the same suffix, on the same mirror, with the same key. And the pin is one version string.
const {
  HAPROXY_PIN,
  upstreamVersion,
  parseAptSources,
  pinnedSourcesFile,
} = require('../../lib/setup/haproxy-build');

const DEB822 = `Types: deb
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
`;

test('the pin is a Debian source version; the binary must report its upstream version', () => {
  expect(HAPROXY_PIN.debianVersion).toMatch(/^3\.0\.\d+-\d+/);
  expect(upstreamVersion('3.0.11-1+deb13u5')).toBe('3.0.11');
  expect(upstreamVersion('1:2.8.5-1ubuntu3')).toBe('2.8.5');
  expect(HAPROXY_PIN.makeFlags).toEqual(
    expect.arrayContaining(['USE_OPENSSL=1', 'USE_PCRE2=1', 'USE_PROMEX=1']),
  );
});

test("deb-src entries for the pinned release are derived from the system's mirrors (deb822 and one-line)", () => {
  const expected = [
    'Types: deb-src\nURIs: http://mirror.example/debian\nSuites: trixie\nComponents: main\n' +
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
    'Types: deb-src\nURIs: http://mirror.example/debian\nSuites: trixie-updates\nComponents: main\n' +
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
    'Types: deb-src\nURIs: http://mirror.example/debian-security\nSuites: trixie-security\nComponents: main\n' +
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg',
  ].join('\n\n');
  expect(pinnedSourcesFile(parseAptSources(DEB822, { deb822: true }))).toBe(expected);

  const oneLine = [
    '# a comment',
    'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.example/debian bookworm main',
    'deb http://mirror.example/debian-security bookworm-security main',
  ].join('\n');
  const file = pinnedSourcesFile(parseAptSources(oneLine, { deb822: false }));
  expect(file).toContain('URIs: http://mirror.example/debian\nSuites: trixie\n');
  expect(file).toContain(
    'URIs: http://mirror.example/debian-security\nSuites: trixie-security\nComponents: main',
  );
  // A suite the pinned release does not have (backports here) adds nothing.
  expect(
    pinnedSourcesFile(
      parseAptSources('deb http://m.example/debian bookworm-backports main', { deb822: false }),
    ),
  ).toBe('');
});

test('OpenSSL 3.5 comes from the same release as the HAProxy pin, and only when asked for', () => {
  const { OPENSSL_PIN, OPENSSL_VERSION } = require('../../lib/setup/openssl-build');
  const { TOOLS } = require('../../lib/setup/registry');
  const { EXTRAS } = require('../../lib/setup/install');
  expect(OPENSSL_PIN).toMatchObject({
    release: HAPROXY_PIN.release,
    suites: HAPROXY_PIN.suites,
    source: 'openssl',
  });
  expect(OPENSSL_VERSION).toMatch(/^3\.5\.\d+$/);
  // Its sources map like HAProxy's, from the system's own mirrors.
  expect(pinnedSourcesFile(parseAptSources(DEB822, { deb822: true }), OPENSSL_PIN)).toMatch(
    /Suites: trixie\n/,
  );
  // No level installs it: `npm run setup -- --with openssl-3.5` does.
  const extra = TOOLS.filter((t) => t.extra);
  expect(extra.map((t) => [t.extra, t.neededFor])).toEqual([['openssl-3.5', undefined]]);
  expect(EXTRAS).toEqual(['openssl-3.5']);
});
