'use strict';
// Setup's HAProxy builds, from the system's own Debian mirror: the 3.2 branch is what npm test's
// setup built (the lab tests run it), and the 3.0 branch builds on request, its version checked.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  HAPROXY_PIN,
  HAPROXY_PINS,
  locatePinned,
  buildHaproxy,
  haproxyVersion,
} = require('../../lib/setup/haproxy-build');
const { upstreamVersion } = require('../../lib/setup/debian-source');
const { findOnPath } = require('../../lib/core/tools');

// Without apt or root setup falls back to the system's HAProxy, and says so: nothing to check.
const canBuild = Boolean(findOnPath('apt-get')) && process.getuid?.() === 0;
const built = canBuild ? test : test.skip;

built('setup built the router HAProxy from the 3.2 branch', () => {
  expect(locatePinned(HAPROXY_PIN)).toMatchObject({ path: HAPROXY_PIN.bin, tooOld: false });
  expect(haproxyVersion(HAPROXY_PIN.bin)).toMatch(/^3\.2\.\d+$/);
});

built(
  'the 3.0 branch builds on request, from the index of its own Debian release',
  () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-haproxy-3.0-'));
    const target = path.join(dir, 'haproxy-3.0');
    const lines = [];
    try {
      const version = buildHaproxy((line) => lines.push(line), { pin: HAPROXY_PINS['3.0'], target });
      expect(version).toBe(upstreamVersion(HAPROXY_PINS['3.0'].debianVersion));
      expect(haproxyVersion(target)).toBe(version);
      // The pinned version itself, from the index: nothing else was tried.
      expect(lines.join('\n')).toContain(
        `apt-get source --tar-only --download-only haproxy=${HAPROXY_PINS['3.0'].debianVersion}`,
      );
      expect(lines.join('\n')).not.toContain('could not be fetched');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
  600000,
);
