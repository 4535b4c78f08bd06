'use strict';
// HAProxy 2.8 and 3.4 from upstream's release commits: pinned by commit, file and SHA-256; a
// tarball that is not the pinned one is refused naming it, and 2.8 without a mirror says where to
// get it (GitHub does not carry its history).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { RELEASE_PINS, releaseTool, branchBuild } = require('../../lib/setup/haproxy-release-build');
const { fetchSource } = require('../../lib/setup/mirror-source');

const log = () => {};

test('each release pinned: its version, the commit of its tag, the mirror file and its SHA-256', () => {
  expect(Object.values(RELEASE_PINS).map((p) => [p.name, p.version, p.file])).toEqual([
    ['haproxy-2.8', '2.8.10', 'haproxy-2.8.10.tar.gz'],
    ['haproxy-3.4', '3.4.0', 'haproxy-3.4.0.tar.gz'],
  ]);
  for (const pin of Object.values(RELEASE_PINS)) {
    expect(pin.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(pin.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(pin.bin).toMatch(new RegExp(`\\.tools/bin/${pin.name}$`));
  }
  expect(releaseTool(RELEASE_PINS['2.8'])).toMatchObject({
    extra: 'haproxy-2.8',
    name: expect.stringContaining('2.8.10'),
  });
});

test('each branch setup builds, with the arguments that make it; none for a branch it does not', () => {
  const made = (branch) => {
    const build = branchBuild(branch);
    return build && [build.version.split('.').slice(0, 2).join('.'), path.basename(build.bin), build.setup];
  };
  expect(made('2.8')).toEqual(['2.8', 'haproxy-2.8', '--with haproxy-2.8']);
  expect(made('3.0')).toEqual(['3.0', 'haproxy-3.0', '--with haproxy-3.0']);
  expect(made('3.2')).toEqual(['3.2', 'haproxy', '--for lab']);
  expect(made('3.4')).toEqual(['3.4', 'haproxy-3.4', '--with haproxy-3.4']);
  expect(branchBuild('2.6')).toBeNull();
});

describe('the source', () => {
  let mirror;
  beforeAll(() => {
    mirror = fs.mkdtempSync(path.join(os.tmpdir(), 'release-mirror-'));
  });
  afterAll(() => fs.rmSync(mirror, { recursive: true, force: true }));

  test('a mirror file whose SHA-256 is not the pinned one is refused, naming the file', async () => {
    const pin = RELEASE_PINS['3.4'];
    fs.writeFileSync(path.join(mirror, pin.file), 'not the release');
    await expect(fetchSource(pin, { env: { ROUTER_LAB_MIRROR: mirror }, log })).rejects.toThrow(
      new RegExp(`${pin.file} has SHA-256 [0-9a-f]{64}, not the pinned ${pin.sha256}`),
    );
  });

  test('a mirror without the file names it; 2.8 without a mirror says it comes from one only', async () => {
    const pin = RELEASE_PINS['2.8'];
    await expect(fetchSource(pin, { env: { ROUTER_LAB_MIRROR: mirror }, log })).rejects.toThrow(
      `ROUTER_LAB_MIRROR=${mirror} has no haproxy-2.8.10.tar.gz`,
    );
    await expect(fetchSource(pin, { env: {}, log })).rejects.toThrow(
      'haproxy-2.8.10.tar.gz is read from a mirror only (GitHub does not carry it): set ROUTER_LAB_MIRROR to a directory holding it',
    );
  });
});
