'use strict';
// Setup's HAProxy builds, from the system's own Debian mirror: the 3.2 branch the lab runs and the
// 3.0 branch, each the version its pin names (setup --for test built both; no test builds a tool).
const { HAPROXY_PIN, HAPROXY_PINS, locatePinned, haproxyVersion } = require('../../lib/setup/haproxy-build');
const { upstreamVersion, canBuildHere } = require('../../lib/setup/debian-source');
const { findOnPath } = require('../../lib/core/tools');

// Without apt or root setup falls back to the system's HAProxy, and says so: nothing to check.
const canBuild = Boolean(findOnPath('apt-get')) && process.getuid?.() === 0;
const built = canBuild ? test : test.skip;

built('setup built the router HAProxy from the 3.2 branch', () => {
  expect(locatePinned(HAPROXY_PIN)).toMatchObject({ path: HAPROXY_PIN.bin, tooOld: false });
  expect(haproxyVersion(HAPROXY_PIN.bin)).toMatch(/^3\.2\.\d+$/);
});

// Setup builds 3.0 for the tests only where it can (root, a mirror of trixie).
const built30 = canBuildHere(HAPROXY_PINS['3.0']) ? test : test.skip;

built30('setup built the 3.0 branch from the index of its own Debian release: the version it pins', () => {
  const pin = HAPROXY_PINS['3.0'];
  expect(locatePinned(pin)).toMatchObject({ path: pin.bin, tooOld: false });
  // The upstream version of the Debian source the pin names (trixie's): nothing else was built.
  expect(haproxyVersion(pin.bin)).toBe(upstreamVersion(pin.debianVersion));
});
