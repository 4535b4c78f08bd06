'use strict';
const { counterIncrease, seriesRate, gaugeSpread, sampleWindow } = require('../../lib/load/cluster-metrics');
const { routesFromList } = require('../../lib/matrix/cluster-api');

test('a counter increase counts across a reset, and its rate is over its own scrapes', () => {
  const values = [
    [100, '10'],
    [101, '14'],
    [102, '2'],
    [104, '6'],
  ];
  expect(counterIncrease(values)).toBe(4 + 2 + 4);
  expect(seriesRate(values)).toBe(10 / 4);
});

test("open sessions over pods scraped at their own moments: each series' median and largest, added up", () => {
  const series = [
    {
      values: [
        [1, '3'],
        [2, '5'],
        [3, '1'],
      ],
    },
    {
      values: [
        [1, '1'],
        [2, '1'],
        [3, '1'],
      ],
    },
  ];
  expect(gaugeSpread(series)).toEqual({ median: 4, max: 6 });
});

test("a sample's window holds only the scrapes taken while its load ran", () => {
  expect(sampleWindow({ startMs: 10000, endMs: 16000 })).toEqual({ atMs: 15500, rangeMs: 5000 });
});

test('Routes from the API: admitted hosts, and each missing one with its reason', () => {
  const admitted = {
    ingress: [
      { host: 'h.apps.x', routerName: 'default', conditions: [{ type: 'Admitted', status: 'True' }] },
    ],
  };
  const items = [
    { metadata: { name: 'data-service-http' }, spec: {}, status: admitted },
    { metadata: { name: 'data-service-edge' }, spec: { tls: { termination: 'edge' } }, status: {} },
    {
      metadata: { name: 'data-service-reencrypt' },
      spec: { tls: { termination: 'edge' } },
      status: admitted,
    },
  ];
  const { routes, missing } = routesFromList(items, { namespace: 'ns', ports: { http: 9080, https: 443 } });
  expect(routes).toEqual({
    http: { name: 'data-service-http', host: 'h.apps.x', url: 'http://h.apps.x:9080', routerName: 'default' },
  });
  expect(missing.map((m) => m.reason)).toEqual([
    "Route data-service-edge is not admitted by any router ('oc describe route data-service-edge -n ns')",
    "Route data-service-passthrough is not in namespace ns ('oc get routes -n ns')",
    "Route data-service-reencrypt terminates 'edge', not 'reencrypt'",
  ]);
});
