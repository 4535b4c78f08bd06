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
} = require('../../lib/lab/router-config');
const { createLabCerts } = require('../../lib/lab/lab-certs');
const { labRoutes, routeSettings, routeManifestPath } = require('../../lib/lab/routes');

const routes = labRoutes({ httpPort: 19080, httpsPort: 19443 });
const router = {
  httpPort: 19080,
  httpsPort: 19443,
  statsPort: 19360,
  threads: 2,
  maxconn: 1000,
  passthroughBalance: 'random',
  checkIntervalMs: 1000,
};
const oneInstance = [{ name: 'data-service-1', port: 28080, tlsPort: 28081 }];

describe('router configuration', () => {
  let dir;
  let certs;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-cfg-'));
    certs = createLabCerts(dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const render = (overrides) =>
    renderRouterConfig({ labDir: dir, router, routes, instances: oneInstance, certs, ...overrides });

  test.each([1, 3])('with %i replica(s) it passes haproxy -c', (replicas) => {
    const instances = Array.from({ length: replicas }, (_, i) => ({
      name: `data-service-${i + 1}`,
      port: 28080 + 2 * i,
      tlsPort: 28081 + 2 * i,
    }));
    const rendered = render({ instances });
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
    // Every TLS Route's manifest says insecureEdgeTerminationPolicy: Redirect.
    expect(maps['os_route_http_redirect.map']).toEqual(
      ['edge', 'passthrough', 'reencrypt'].map(
        (t) => `${pattern(`data-service-${t}-router-lab.apps.lab.localhost`)} 1`,
      ),
    );
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

  test('each Route takes its router settings from the manifest a cluster gets', () => {
    const byTermination = Object.fromEntries(routes.map((r) => [r.termination, r]));
    expect(byTermination.http).toMatchObject({ insecurePolicy: null, timeout: '60s', disableCookies: true });
    expect(byTermination.edge).toMatchObject({ insecurePolicy: 'Redirect', disableCookies: true });
    expect(byTermination.passthrough).toMatchObject({ balance: 'random', timeout: '60s' });

    const rendered = render();
    const backend = (name) =>
      rendered.config.split(/\n(?=backend )/).find((b) => b.startsWith(`backend ${name}`));
    expect(backend(byTermination.edge.backend)).toMatch(/^ {2}timeout server 60s$/m);
    expect(backend(byTermination.passthrough.backend)).toMatch(/^ {2}timeout tunnel 60s$/m);
    expect(rendered.config).not.toMatch(/^\s*cookie |\scookie [0-9a-f]{32}/m);
  });

  test('a Route manifest without disable_cookies gets the router’s session cookie', () => {
    const manifest = fs.readFileSync(routeManifestPath('edge'), 'utf8').replace(/^.*disable_cookies.*$/m, '');
    const file = path.join(dir, 'edge-with-cookies.yaml');
    fs.writeFileSync(file, manifest);
    const edge = { ...routes.find((r) => r.termination === 'edge'), ...routeSettings('edge', file) };
    expect(edge.disableCookies).toBe(false);
    const rendered = render({ routes: routes.map((r) => (r.termination === 'edge' ? edge : r)) });
    expect(rendered.config).toMatch(
      /^ {2}cookie [0-9a-f]{32} insert indirect nocache httponly secure attr SameSite=None$/m,
    );
    expect(rendered.config).toMatch(
      /server pod:data-service-1:data-service:http:127\.0\.0\.1:28080 127\.0\.0\.1:28080 cookie [0-9a-f]{32} /,
    );
  });

  test('a manifest of the wrong Route is refused, naming the file', () => {
    expect(() => routeSettings('edge', routeManifestPath('passthrough'))).toThrow(
      /route-passthrough\/route\.yaml is not the edge Route \(kind Route, termination passthrough\)/,
    );
  });

  test('an invalid configuration is rejected with HAProxy’s own message', () => {
    const bad = path.join(dir, 'bad.cfg');
    fs.writeFileSync(bad, 'frontend x\n  bind 127.0.0.1:1\n  no-such-keyword\n');
    expect(() => checkRouterConfig(bad)).toThrow(/haproxy -c rejected .*bad\.cfg[\s\S]*no-such-keyword/);
  });
});
