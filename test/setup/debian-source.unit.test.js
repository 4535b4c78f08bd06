'use strict';
// A pinned source package's entries come from the system's own apt sources (no mirror is named in
// the project): each suite of the system's release maps to the pinned release's suite with the
// same suffix, on the same mirror, with the same key. And the order in which a tarball is sought.
const {
  upstreamVersion,
  parseAptSources,
  pinnedSourcesFile,
  fetchPlan,
} = require('../../lib/setup/debian-source');

const TRIXIE = { release: 'trixie', suites: ['trixie', 'trixie-updates', 'trixie-security'] };

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

test('upstreamVersion drops the epoch and the Debian revision', () => {
  expect(upstreamVersion('3.0.11-1+deb13u5')).toBe('3.0.11');
  expect(upstreamVersion('1:2.8.5-1ubuntu3')).toBe('2.8.5');
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
  expect(pinnedSourcesFile(parseAptSources(DEB822, { deb822: true }), TRIXIE)).toBe(expected);

  const oneLine = [
    '# a comment',
    'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.example/debian bookworm main',
    'deb http://mirror.example/debian-security bookworm-security main',
  ].join('\n');
  const file = pinnedSourcesFile(parseAptSources(oneLine, { deb822: false }), TRIXIE);
  expect(file).toContain('URIs: http://mirror.example/debian\nSuites: trixie\n');
  expect(file).toContain(
    'URIs: http://mirror.example/debian-security\nSuites: trixie-security\nComponents: main',
  );
  // A suite the pinned release does not have (backports here) adds nothing.
  expect(
    pinnedSourcesFile(
      parseAptSources('deb http://m.example/debian bookworm-backports main', { deb822: false }),
      TRIXIE,
    ),
  ).toBe('');
});

test('the pinned version first, from the index or the pool; then the newest of its branch offered', () => {
  const pin = { source: 'haproxy', branch: '3.2', debianVersion: '3.2.23-1', origSha256: 'ab'.repeat(32) };
  const offered = ['3.4.7-1', '3.2.26-1', '3.2.23-1'];
  expect(fetchPlan(pin, offered)).toEqual([
    { from: 'index', version: '3.2.23-1' },
    { from: 'pool', version: '3.2.23-1' },
    { from: 'index', version: '3.2.26-1' },
  ]);
  // Gone from the index: the pool by its checksum, then what the index offers of 3.2 (not 3.4).
  expect(fetchPlan(pin, ['3.4.7-1', '3.2.26-1'])).toEqual([
    { from: 'pool', version: '3.2.23-1' },
    { from: 'index', version: '3.2.26-1' },
  ]);
  // A pin without a checksum or a branch is that version from the index, or nothing.
  const exact = { source: 'openssl', debianVersion: '3.5.7-1~deb13u2' };
  expect(fetchPlan(exact, ['3.5.8-1~deb13u1'])).toEqual([]);
  expect(fetchPlan(exact, ['3.5.7-1~deb13u2'])).toEqual([{ from: 'index', version: '3.5.7-1~deb13u2' }]);
});
