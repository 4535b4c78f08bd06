'use strict';
// LAB_ROUTES on both routers: the four data-service Routes and more, as many per termination, each
// with a backend of its own: 40 on the real router, where the further ones carry an earlier router
// pod's admission (the router writes no status for them), 100 on the template router.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { useLab } = require('./helpers');
const { probeRoute } = require('../../lib/lab/common/health');
const { waitUntil } = require('../../lib/lab/common/stack');

jest.setTimeout(240000);

const describeAsRoot = process.getuid() === 0 ? describe : describe.skip;

/** `perTermination` further Routes per termination; the first, a middle and the last of each answer 200. */
async function expectSampleServes(scaleRoutes, labCA, perTermination) {
  const per = {};
  for (const r of scaleRoutes.routes) (per[r.termination] ??= []).push(r);
  expect(Object.fromEntries(Object.entries(per).map(([t, list]) => [t, list.length]))).toEqual({
    http: perTermination,
    edge: perTermination,
    passthrough: perTermination,
    reencrypt: perTermination,
  });
  for (const list of Object.values(per)) {
    for (const route of [list[0], list[Math.floor(list.length / 2)], list.at(-1)]) {
      expect([route.name, await probeRoute(route, { labCA })]).toEqual([
        route.name,
        expect.objectContaining({ ok: true, status: 200 }),
      ]);
    }
  }
}

describe('LAB_ROUTES=100 with the template router', () => {
  const lab$ = useLab({ LAB_ROUTES: '100' });

  test('renders a backend for each of the 100 Routes and serves every termination, across a reload', async () => {
    const { scaleRoutes, certs, labDir } = lab$.state;
    expect(scaleRoutes.count).toBe(96);
    const config = fs.readFileSync(path.join(labDir, 'haproxy.cfg'), 'utf8');
    expect(config.match(/^backend be_(http|edge_http|tcp|secure):router-lab:/gm)).toHaveLength(100);
    await expectSampleServes(scaleRoutes, certs.labCA, 24);
    await require('../../lib/lab/index').reload({ env: lab$.env, log: () => {} });
    await expectSampleServes(scaleRoutes, certs.labCA, 24);
  });
});

describeAsRoot('LAB_ROUTES=40 with LAB_ROUTER=openshift', () => {
  const lab$ = useLab({ LAB_ROUTER: 'openshift', LAB_ROUTES: '40', LAB_ROUTER_RELOAD_INTERVAL: '1' });

  test('serves all 40 Routes, every termination included', async () => {
    const { scaleRoutes, routes, certs, router } = lab$.state;
    expect(routes).toHaveLength(4);
    expect(scaleRoutes.count).toBe(36);
    // Every Route is admitted; the router wrote the status of the four it found without one only:
    // it keeps an earlier pod's admission, as a restarted router pod does.
    const { items } = JSON.parse(
      execFileSync(
        '.tools/bin/kubectl',
        [
          '--kubeconfig',
          router.kube.kubeconfig,
          'get',
          'routes',
          '-n',
          'router-lab',
          '-o',
          'json',
          '--show-managed-fields',
        ],
        { encoding: 'utf8' },
      ),
    );
    const admitted = items.filter((r) => r.status?.ingress?.[0]?.conditions?.[0]?.status === 'True');
    expect(admitted).toHaveLength(40);
    const byRouter = items.filter((r) =>
      r.metadata.managedFields.some((f) => f.manager === 'openshift-router' && f.subresource === 'status'),
    );
    expect(byRouter.map((r) => r.metadata.name).sort()).toEqual(routes.map((r) => r.name).sort());
    await expectSampleServes(scaleRoutes, certs.labCA, 9);
  });

  test('lab:reload --exclude withdraws the instance from every Service, and a reload puts it back', async () => {
    const lab = require('../../lib/lab/index');
    const config = () =>
      fs.readFileSync(path.join(lab$.state.router.workDir, 'conf', 'haproxy.config'), 'utf8');
    // A server line per backend for the instance: `server pod:data-service-2:<service>:…`.
    const servers = () => config().match(/^\s*server pod:data-service-2:/gm)?.length ?? 0;
    expect(servers()).toBeGreaterThanOrEqual(40);
    // 36 further EndpointSlices may reach the router over more than one reload interval.
    const settles = (what, ok) => waitUntil(async () => ok(servers()), { timeoutMs: 30000, what });
    await lab.reload({ env: lab$.env, exclude: ['data-service-2'], log: () => {} });
    await settles('data-service-2 gone from every backend', (n) => n === 0);
    await lab.reload({ env: lab$.env, log: () => {} });
    await settles('data-service-2 back in every backend', (n) => n >= 40);
  });
});
