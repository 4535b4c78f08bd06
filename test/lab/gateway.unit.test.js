'use strict';
// The Gateway backend's pure parts: istiod's verdict on a route object, its pushes between two
// readings of its /metrics, and the probe HTTPRoute lab:admission creates.
const { routeVerdict, pushesBetween, admissionProbeHttpRoute } = require('../../lib/lab/gateway/admission');

test('an HTTPRoute istiod refuses is shown with its reason', () => {
  const refused = routeVerdict({
    spec: { hostnames: ['a.example'] },
    status: {
      parents: [
        {
          controllerName: 'openshift.io/gateway-controller/v1',
          conditions: [{ type: 'Accepted', status: 'False', reason: 'NotAllowedByListeners', message: 'no' }],
        },
        { controllerName: 'someone.else/controller', conditions: [{ type: 'Accepted', status: 'True' }] },
      ],
    },
  });
  expect(refused).toMatchObject({
    admitted: false,
    rejected: true,
    reason: 'NotAllowedByListeners',
    host: 'a.example',
  });
  expect(routeVerdict({ spec: {}, status: {} })).toMatchObject({
    admitted: false,
    rejected: false,
    host: '*',
  });
});
test("istiod's pushes between two readings: how many, and the mean time of one", () => {
  const before = { pushes: 10, pushSeconds: 0.01, pushesTimed: 10 };
  expect(pushesBetween(before, { pushes: 14, pushSeconds: 0.014, pushesTimed: 14 })).toEqual({
    count: 4,
    pushMs: 1,
  });
  expect(pushesBetween(before, before)).toEqual({ count: 0, pushMs: null });
});

test("the probe HTTPRoute: its own host on the Gateway's http listener, its answers marked", () => {
  const route = admissionProbeHttpRoute('probe-1', 'probe-1-router-lab.apps.lab.localhost');
  expect(route.spec.parentRefs).toEqual([
    { name: 'data-service', namespace: 'openshift-ingress', sectionName: 'http' },
  ]);
  expect(route.spec.hostnames).toEqual(['probe-1-router-lab.apps.lab.localhost']);
  expect(route.spec.rules[0].filters[0].responseHeaderModifier.add).toEqual([
    { name: 'x-router-lab-probe', value: 'probe-1' },
  ]);
});

test("LAB_ROUTES's further routes through the Gateway: HTTPRoutes only, re-encrypt's with a BackendTLSPolicy", () => {
  const { scaleRoutes } = require('../../lib/lab/common/scale-routes');
  const { scaleTerminations } = require('../../lib/lab/gateway/kind');
  const { scaleObjects } = require('../../lib/lab/gateway/scale-routes');
  const routes = scaleRoutes(12, scaleTerminations);
  expect(routes.map((r) => r.name)).toEqual([
    'scale-http-1',
    'scale-edge-1',
    'scale-reencrypt-1',
    'scale-http-2',
    'scale-edge-2',
    'scale-reencrypt-2',
    'scale-http-3',
    'scale-edge-3',
  ]);
  const gateway = { name: 'data-service', namespace: 'openshift-ingress' };
  const [http] = scaleObjects(routes[0], gateway);
  expect(http.spec.parentRefs).toEqual([{ ...gateway, sectionName: 'http' }]);
  expect(http.spec.rules[0].backendRefs).toEqual([{ name: 'scale-http-1', port: 8080 }]);
  const [edge] = scaleObjects(routes[1], gateway);
  expect(edge.spec.parentRefs).toEqual([{ ...gateway, sectionName: 'https' }]);
  const [reencrypt, policy] = scaleObjects(routes[2], gateway);
  expect(reencrypt.spec.hostnames).toEqual(['scale-reencrypt-1-router-lab.apps.lab.localhost']);
  expect(reencrypt.spec.rules[0].backendRefs).toEqual([{ name: 'scale-reencrypt-1', port: 8443 }]);
  expect(policy.spec.targetRefs).toEqual([
    { group: '', kind: 'Service', name: 'scale-reencrypt-1', sectionName: 'https' },
  ]);
  expect(policy.spec.validation.hostname).toBe('scale-reencrypt-1.router-lab.svc');
  // Every further route marks its answers: the catch-all HTTPRoute would answer its host too.
  for (const r of [http, edge, reencrypt]) {
    expect(r.spec.rules[0].filters[0].responseHeaderModifier.add[0].name).toBe('x-router-lab-route');
  }
});

test("Envoy's counters in HAProxy's shape: TLS sessions on its listeners, streams by version, connections", () => {
  const { envoyReading } = require('../../lib/lab/gateway/counters');
  const stats = [
    { name: 'listener.0.0.0.0_28061.ssl.handshake', value: 8 },
    { name: 'listener.0.0.0.0_28061.ssl.session_reused', value: 3 },
    { name: 'listener.0.0.0.0_28061.downstream_cx_active', value: 2 },
    { name: 'listener.0.0.0.0_28061.worker_0.downstream_cx_active', value: 2 },
    { name: 'listener.0.0.0.0_31065.downstream_cx_active', value: 1 },
    { name: 'http.outbound_0.0.0.0_28061;.downstream_rq_http1_total', value: 2 },
    { name: 'http.outbound_0.0.0.0_28061;.downstream_rq_http2_total', value: 4 },
    { name: 'http.outbound_0.0.0.0_31065;.downstream_rq_http1_total', value: 1 },
    { name: 'cluster.outbound|8080||data-service.router-lab.svc.cluster.local;.upstream_rq_total', value: 5 },
    {
      name: 'cluster.outbound|8080||data-service.router-lab.svc.cluster.local;.upstream_cx_http2_total',
      value: 0,
    },
    { name: 'cluster.outbound|8443||h2.router-lab.svc.cluster.local;.upstream_rq_total', value: 7 },
    { name: 'cluster.outbound|8443||h2.router-lab.svc.cluster.local;.upstream_cx_http2_total', value: 1 },
  ];
  expect(envoyReading(stats, { pid: 42, at: 1000 })).toMatchObject({
    tlsTotals: { full: 5, resumed: 3 },
    streamTotals: { received: { h1: 3, h2: 4 }, sent: { h1: 5, h2: 7 } },
    currentConnections: 3,
    pid: 42,
    at: 1000,
  });
});
