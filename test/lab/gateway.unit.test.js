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
