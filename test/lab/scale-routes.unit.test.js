'use strict';
const { scaleRoutes, scaleManifests, serviceHost } = require('../../lib/lab/common/scale-routes');

test('N routes: the four, and N - 4 spread evenly over the terminations in turn', () => {
  expect(scaleRoutes(4)).toEqual([]);
  const routes = scaleRoutes(100);
  expect(routes).toHaveLength(96);
  const per = (t) => routes.filter((r) => r.termination === t).length;
  expect(['http', 'edge', 'passthrough', 'reencrypt'].map(per)).toEqual([24, 24, 24, 24]);
  expect(routes.slice(0, 5).map((r) => r.name)).toEqual([
    'scale-http-1',
    'scale-edge-1',
    'scale-passthrough-1',
    'scale-reencrypt-1',
    'scale-http-2',
  ]);
  expect(routes[1].host).toBe('scale-edge-1-router-lab.apps.lab.localhost');
  expect(scaleRoutes(7).map((r) => r.termination)).toEqual(['http', 'edge', 'passthrough']);
});

test("a scale Route is its termination's manifest on a Service of its own", () => {
  const [route, service] = scaleManifests({ name: 'scale-reencrypt-3', termination: 'reencrypt' });
  expect(route).toMatchObject({
    kind: 'Route',
    metadata: { name: 'scale-reencrypt-3', labels: { 'router-lab.io/scale': 'true' } },
    spec: {
      to: { kind: 'Service', name: 'scale-reencrypt-3' },
      port: { targetPort: 'https' },
      tls: { termination: 'reencrypt' },
    },
  });
  expect(route.metadata.annotations['haproxy.router.openshift.io/disable_cookies']).toBe('true');
  expect(service).toMatchObject({ kind: 'Service', metadata: { name: 'scale-reencrypt-3' } });
  expect(service.spec.ports.map((p) => p.name)).toEqual(['http', 'https']);
  expect(serviceHost({ name: 'scale-reencrypt-3' })).toBe('scale-reencrypt-3.router-lab.svc');
});

test("the router's reload figures: its template_router summaries, per reload between two readings", () => {
  const { reloadsBetween } = require('../../lib/lab/openshift-router/router-metrics');
  const { sumSeries } = require('../../lib/lab/common/metrics-text');
  const text = [
    '# TYPE template_router_reload_seconds summary',
    'template_router_reload_seconds{quantile="0.5"} 0.2',
    'template_router_reload_seconds_sum 1.5',
    'template_router_reload_seconds_count 6',
    'template_router_write_config_seconds_sum 0.06',
  ].join('\n');
  expect(
    sumSeries(text, ['template_router_reload_seconds_sum', 'template_router_reload_seconds_count', 'nope']),
  ).toEqual({ template_router_reload_seconds_sum: 1.5, template_router_reload_seconds_count: 6 });
  // istiod's counters have a series per xDS type: their sum.
  const pushes = 'pilot_xds_pushes{type="cds"} 2\npilot_xds_pushes{type="eds"} 3\npilot_xds_pushes_other 9';
  expect(sumSeries(pushes, ['pilot_xds_pushes'])).toEqual({ pilot_xds_pushes: 5 });
  const before = { reloads: 2, reloadSeconds: 0.5, renders: 2, renderSeconds: 0.02 };
  const after = { reloads: 6, reloadSeconds: 1.5, renders: 6, renderSeconds: 0.06 };
  expect(reloadsBetween(before, after)).toEqual({ count: 4, renderMs: 10, reloadMs: 250 });
  expect(reloadsBetween(after, after)).toEqual({ count: 0, renderMs: null, reloadMs: null });
});
