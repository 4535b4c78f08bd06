'use strict';
// LAB_ROUTES=100 on the real router: the four data-service Routes and 96 more, 24 per termination,
// each with a Service of its own, all admitted through the API and answering through the router.
const { execFileSync } = require('node:child_process');
const { useLab } = require('./helpers');
const { probeRoute } = require('../../lib/lab/health');

jest.setTimeout(240000);

const describeAsRoot = process.getuid() === 0 ? describe : describe.skip;

describeAsRoot('LAB_ROUTES=100 with LAB_ROUTER=openshift', () => {
  const lab$ = useLab({ LAB_ROUTER: 'openshift', LAB_ROUTES: '100', LAB_ROUTER_RELOAD_INTERVAL: '1' });

  test('serves all 100 Routes, every termination included', async () => {
    const { scaleRoutes, routes, certs, router } = lab$.state;
    expect(routes).toHaveLength(4);
    expect(scaleRoutes.count).toBe(96);
    const per = {};
    for (const r of scaleRoutes.routes) (per[r.termination] ??= []).push(r);
    expect(Object.fromEntries(Object.entries(per).map(([t, list]) => [t, list.length]))).toEqual({
      http: 24,
      edge: 24,
      passthrough: 24,
      reencrypt: 24,
    });
    // The API shows every Route admitted by the router.
    const admitted = execFileSync(
      '.tools/bin/kubectl',
      [
        '--kubeconfig',
        router.kube.kubeconfig,
        'get',
        'routes',
        '-n',
        'router-lab',
        '-o',
        'jsonpath={range .items[*]}{.status.ingress[0].conditions[0].status}{"\\n"}{end}',
      ],
      { encoding: 'utf8' },
    );
    expect(
      admitted
        .trim()
        .split('\n')
        .filter((s) => s === 'True'),
    ).toHaveLength(100);
    // A sample of hosts through each termination: the first, a middle one and the last.
    for (const list of Object.values(per)) {
      for (const route of [list[0], list[11], list.at(-1)]) {
        expect([route.name, await probeRoute(route, { labCA: certs.labCA })]).toEqual([
          route.name,
          expect.objectContaining({ ok: true, status: 200 }),
        ]);
      }
    }
  });
});
