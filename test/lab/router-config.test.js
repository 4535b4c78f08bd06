'use strict';
// The router configuration renderer, without starting anything: the template is fully filled,
// the map files route each host like the OpenShift router's maps, and haproxy -c accepts the
// result for any replica count.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  renderRouterConfig,
  writeRouterConfig,
  checkRouterConfig,
  fillTemplate,
  mapFiles,
} = require('../../scripts/lab/router-config');
const { createLabCerts } = require('../../scripts/lab/lab-certs');
const { labRoutes } = require('../../scripts/lab/routes');

const routes = labRoutes({ httpPort: 19080, httpsPort: 19443 });

describe('router configuration', () => {
  let dir;
  let certs;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-cfg-'));
    certs = createLabCerts(dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test.each([1, 3])('with %i replica(s) it passes haproxy -c', (replicas) => {
    const instances = Array.from({ length: replicas }, (_, i) => ({
      name: `data-service-${i + 1}`,
      port: 28080 + 2 * i,
      tlsPort: 28081 + 2 * i,
    }));
    const rendered = renderRouterConfig({
      labDir: dir,
      router: {
        httpPort: 19080,
        httpsPort: 19443,
        statsPort: 19360,
        threads: 2,
        maxconn: 1000,
        passthroughBalance: 'random',
        checkIntervalMs: 1000,
      },
      routes,
      instances,
      certs,
    });
    expect(rendered.config).not.toMatch(/\{\{/);
    expect(rendered.config.match(/^ {2}server pod:/gm)).toHaveLength(4 * replicas);
    expect(() => checkRouterConfig(writeRouterConfig(dir, rendered))).not.toThrow();
  });

  test('map files send each host to its backend, like the router maps', () => {
    const maps = mapFiles(routes);
    const pattern = (host) => `^${host.replace(/\./g, '\\.')}(:[0-9]+)?(/.*)?$`;
    expect(maps['os_http_be.map']).toEqual([
      `${pattern('data-service-http-router-lab.apps.lab.localhost')} be_http:router-lab:data-service-http`,
    ]);
    expect(maps['os_route_http_redirect.map']).toEqual([
      `${pattern('data-service-edge-router-lab.apps.lab.localhost')} 1`,
    ]);
    expect(maps['os_edge_reencrypt_be.map'].map((l) => l.split(' ')[1])).toEqual([
      'be_edge_http:router-lab:data-service-edge',
      'be_secure:router-lab:data-service-reencrypt',
    ]);
    expect(maps['os_tcp_be.map']).toEqual([
      '^data-service-passthrough-router-lab\\.apps\\.lab\\.localhost$ be_tcp:router-lab:data-service-passthrough',
    ]);
  });

  test('a placeholder without a value, or a value without a placeholder, is an error', () => {
    expect(() => fillTemplate('maxconn {{ maxconn }}', {})).toThrow('no value for {{ maxconn }}');
    expect(() => fillTemplate('x', { threads: 4 })).toThrow('values never used: threads');
    expect(fillTemplate('nbthread {{threads}}', { threads: 4 })).toBe('nbthread 4');
  });

  test('an invalid configuration is rejected with HAProxy’s own message', () => {
    const bad = path.join(dir, 'bad.cfg');
    fs.writeFileSync(bad, 'frontend x\n  bind 127.0.0.1:1\n  no-such-keyword\n');
    expect(() => checkRouterConfig(bad)).toThrow(/haproxy -c rejected .*bad\.cfg[\s\S]*no-such-keyword/);
  });
});
