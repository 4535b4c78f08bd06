'use strict';
// HAProxy 2.8 and 3.4 (built by setup for the tests where the mirror has them) running the lab:
// release-4.22's router on 2.8.10 by default, as OpenShift 4.22 runs 2.8; the template router on 3.4.0, its
// sni-auto off for re-encrypt. Each serves all four terminations and says which HAProxy ran.
const { execFileSync } = require('node:child_process');
const { useLab, sharedLab } = require('./helpers');
const { SHARED_KNOBS } = require('../support/lab-pool');
const { probeRoute } = require('../../lib/lab/common/health');
const { RELEASE_PINS } = require('../../lib/setup/haproxy-release-build');
const { haproxyVersion } = require('../../lib/setup/haproxy-build');

jest.setTimeout(240000);

const built = (pin) => haproxyVersion(pin.bin) === pin.version;
const whenBuilt = (pin, asRoot = false) =>
  built(pin) && (!asRoot || process.getuid() === 0) ? describe : describe.skip;

/** Every route of the lab answers 200 through its router. */
async function expectEveryRouteServes(state) {
  const seen = [];
  for (const route of state.routes)
    seen.push([route.termination, (await probeRoute(route, { labCA: state.certs.labCA })).status]);
  expect(seen.sort()).toEqual([
    ['edge', 200],
    ['http', 200],
    ['passthrough', 200],
    ['reencrypt', 200],
  ]);
}

whenBuilt(RELEASE_PINS['2.8'], true)('release-4.22 of openshift-router on HAProxy 2.8.10', () => {
  const pin = RELEASE_PINS['2.8'];
  // No LAB_HAPROXY: release-4.22's router runs on the branch its image ships by default. The
  // run's shared lab (the HAProxy-version exercise starts its first lab with these knobs).
  const lab$ = sharedLab(SHARED_KNOBS.release422);

  test('serves all four terminations by default, and the lab says which pair ran', async () => {
    await expectEveryRouteServes(lab$.state);
    expect(lab$.state.router.haproxy).toMatchObject({
      version: '2.8.10',
      path: pin.bin,
      source: "release-4.22's 2.8",
    });
    expect(lab$.state.router.openshiftRouter.branch).toBe('release-4.22');
    const vv = execFileSync(pin.bin, ['-vv'], { encoding: 'utf8' });
    expect(vv).toMatch(/^HAProxy version 2\.8\.10-f28885f42 /m);
    expect(vv).toMatch(/^Running on OpenSSL version : OpenSSL 3\./m);
  });
});

whenBuilt(RELEASE_PINS['3.4'])('the template router on HAProxy 3.4.0', () => {
  const pin = RELEASE_PINS['3.4'];
  const lab$ = useLab({ LAB_HAPROXY: pin.bin });

  test('serves all four terminations, re-encrypt with sni-auto off, and says which HAProxy ran', async () => {
    await expectEveryRouteServes(lab$.state);
    expect(lab$.state.router.haproxy).toMatchObject({ version: '3.4.0', source: 'LAB_HAPROXY' });
  });
});
