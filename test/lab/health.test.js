'use strict';
// probeRoute against a real Node server that keeps connections alive: each probe opens a
// connection of its own, so no probe after a reload rides a connection the old HAProxy closes.
const http = require('node:http');
const { probeRoute } = require('../../lib/lab/common/health');

let server;
let connections = 0;

beforeAll(async () => {
  server = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ instance: 'data-service-1', host: req.headers.host }));
  });
  server.on('connection', () => (connections += 1));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('each probe of a Route opens a connection of its own and names the instance that answered', async () => {
  const route = {
    url: `http://scale-http-1.apps.lab.localhost:${server.address().port}`,
    termination: 'http',
  };
  const probes = [await probeRoute(route), await probeRoute(route), await probeRoute(route)];
  expect(probes.map((p) => [p.ok, p.status, p.instance])).toEqual(
    Array(3).fill([true, 200, 'data-service-1']),
  );
  expect(connections).toBe(3);
});
