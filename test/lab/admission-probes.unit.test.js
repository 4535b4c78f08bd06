'use strict';
// Admission's probes without a router: an endpoint change interrupted while it waits for traffic
// to leave puts the instance back, so Ctrl-C leaves the service as it was.
const { measureEndpointChange } = require('../../lib/lab/kube/admission-probes');

test('an endpoint change interrupted after the withdrawal publishes the instance again', async () => {
  const calls = [];
  const endpoints = {
    withdraw: async (instance) => calls.push(['withdraw', instance.name]),
    publish: async (instance) => calls.push(['publish', instance.name]),
  };
  const state = {
    routes: [{ termination: 'http', host: 'h' }],
    instances: [{ name: 'data-service-1' }, { name: 'data-service-2' }],
    router: { httpPort: 1 },
  };
  const controller = new AbortController();
  const withdraw = endpoints.withdraw;
  endpoints.withdraw = async (instance) => {
    await withdraw(instance);
    controller.abort();
  };
  await expect(
    measureEndpointChange(state, endpoints, { timeoutMs: 1000, signal: controller.signal }),
  ).rejects.toThrow(/abort/i);
  expect(calls).toEqual([
    ['withdraw', 'data-service-2'],
    ['publish', 'data-service-2'],
  ]);
});
