'use strict';
// The router source's commit, read from the pax header `git archive` (and so GitHub) writes, and
// the pins it is checked against (lib/setup/openshift-router-build.js).
const zlib = require('node:zlib');
const { ROUTER_PINS } = require('../../lib/setup/openshift-router-build');
const { tarCommitId } = require('../../lib/setup/mirror-source');

/** A gzipped tar whose first entry is a header of `type` carrying `data`, as git archive writes. */
function tarball(type, data) {
  const header = Buffer.alloc(512);
  header.write('pax_global_header', 0, 'latin1');
  header.write(type, 156, 'latin1');
  const body = Buffer.alloc(512);
  body.write(data, 0, 'latin1');
  return zlib.gzipSync(Buffer.concat([header, body, Buffer.alloc(1024)]));
}

test('the commit comes from the pax global header', () => {
  const sha = ROUTER_PINS['5.0'].commit;
  expect(tarCommitId(tarball('g', `52 comment=${sha}\n`))).toBe(sha);
});

test('a tarball without it has no commit: it is refused, never trusted', () => {
  expect(tarCommitId(tarball('0', 'hello'))).toBeNull();
  expect(tarCommitId(tarball('g', '30 mtime=1700000000\n'))).toBeNull();
});

test('each release is pinned to a full commit and names the HAProxy branch its image installs', () => {
  expect(ROUTER_PINS).toEqual({
    '5.0': expect.objectContaining({ branch: 'release-5.0', haproxy: '3.2' }),
    4.22: expect.objectContaining({ branch: 'release-4.22', haproxy: '2.8' }),
  });
  for (const pin of Object.values(ROUTER_PINS)) expect(pin.commit).toMatch(/^[0-9a-f]{40}$/);
});
