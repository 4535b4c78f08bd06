'use strict';
// The router configuration renderer, without starting anything: the template is fully filled,
// the map files route each host like the OpenShift router's maps, and haproxy -c accepts the
// result for any replica count, on the system's HAProxy and on the pinned build.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const {
  renderRouterConfig,
  writeRouterConfig,
  checkRouterConfig,
  fillTemplate,
  mapFiles,
} = require('../../lib/lab/haproxy/router-config');
const { createLabCerts } = require('../../lib/lab/common/lab-certs');
const { labRoutes, routeSettings, routeManifestPath } = require('../../lib/lab/common/routes');
const { describeHaproxy } = require('../../lib/lab/haproxy/binary');
const { RELEASE_PINS } = require('../../lib/setup/haproxy-release-build');
const { findOnPath } = require('../../lib/core/tools');
const { PINNED_BIN, HAPROXY_PIN, haproxyVersion, locatePinned } = require('../../lib/setup/haproxy-build');

const pinnedVersion = haproxyVersion(PINNED_BIN);
const pinnedBuilt = locatePinned(HAPROXY_PIN)?.tooOld === false;
const BINARIES = [
  { label: "the system's HAProxy", file: findOnPath('haproxy') },
  {
    label: `the pinned HAProxy ${pinnedVersion}`,
    file: pinnedBuilt ? PINNED_BIN : null,
  },
  // The releases setup builds from upstream's commits (--for test, where the mirror has them).
  ...Object.values(RELEASE_PINS).map((pin) => ({
    label: `HAProxy ${pin.version}`,
    file: haproxyVersion(pin.bin) === pin.version ? pin.bin : null,
  })),
];

const routes = labRoutes({ httpPort: 19080, httpsPort: 19443 });
const router = {
  httpPort: 19080,
  httpsPort: 19443,
  statsPort: 19360,
  threads: 2,
  maxconn: 1000,
  passthroughBalance: null,
  http2: false,
  openshiftRelease: '4.22',
  checkIntervalMs: 1000,
};
const oneInstance = [{ name: 'data-service-1', port: 28080, tlsPort: 28081 }];

const TLS_HOSTS = routes.filter((r) => ['edge', 'reencrypt'].includes(r.termination)).map((r) => r.host);
/** A frontend's block of the rendered configuration. */
const section = (config, header) =>
  config.split(/\n(?=frontend |backend |listen )/).find((b) => b.startsWith(header));

for (const binary of BINARIES) {
  const suite = binary.file ? describe : describe.skip;
  suite(
    `router configuration on ${binary.label}${binary.file ? '' : ": SKIPPED, not built (run 'npm run setup')"}`,
    () => {
      let dir;
      let certs;
      let haproxy;

      beforeAll(async () => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-cfg-'));
        certs = await createLabCerts(dir, { routeHosts: TLS_HOSTS });
        haproxy = describeHaproxy(binary.file);
      });
      afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

      const render = (overrides = {}) =>
        renderRouterConfig({
          labDir: dir,
          routes,
          instances: oneInstance,
          certs: overrides.certs || { ...certs, routeCerts: overrides.routeCerts || {} },
          haproxy,
          ...overrides,
          router: { ...router, ...overrides.router },
        });
      const valid = (rendered) =>
        expect(() => checkRouterConfig(writeRouterConfig(dir, rendered), binary.file)).not.toThrow();

      test.each([1, 3])('with %i replica(s) it passes haproxy -c', (replicas) => {
        const instances = Array.from({ length: replicas }, (_, i) => ({
          name: `data-service-${i + 1}`,
          port: 28080 + 2 * i,
          tlsPort: 28081 + 2 * i,
        }));
        const rendered = render({ instances });
        expect(rendered.config).not.toMatch(/\{\{/);
        expect(rendered.config.match(/^ {2}server pod:/gm)).toHaveLength(4 * replicas);
        valid(rendered);
      });

      test('the TLS-terminating binds offer no ALPN: no-alpn from 2.8 on, nothing on 2.6 (which has no keyword)', () => {
        const rendered = render();
        valid(rendered);
        for (const fe of ['frontend fe_sni', 'frontend fe_no_sni']) {
          const bind = /^ {2}bind unix@.*$/m.exec(section(rendered.config, fe))[0];
          expect(bind.endsWith(' no-alpn')).toBe(haproxy.noAlpn);
          expect(bind).not.toMatch(/crt-list|alpn h2/);
        }
        expect(haproxy.noAlpn).toBe(!haproxy.version.startsWith('2.6'));
        expect(rendered.alpn).toBe('http/1.1');
      });

      test('LAB_ROUTER_SNI_HOP=none: fe_sni binds the HTTPS port without the PROXY hop, public_ssl is off', () => {
        const hop = render();
        expect(section(hop.config, 'frontend public_ssl')).toMatch(/^ {2}bind 127\.0\.0\.1:19443$/m);
        expect(section(hop.config, 'frontend fe_sni')).toMatch(
          /^ {2}bind unix@\S+\/haproxy-sni\.sock ssl .* accept-proxy/m,
        );
        const direct = render({ router: { sniHop: 'none' } });
        valid(direct);
        expect(section(direct.config, 'frontend public_ssl')).toMatch(/^ {2}disabled$/m);
        expect(section(direct.config, 'frontend public_ssl')).not.toMatch(/^ {2}bind /m);
        const bind = /^ {2}bind .*$/m.exec(section(direct.config, 'frontend fe_sni'))[0];
        expect(bind).toMatch(/^ {2}bind 127\.0\.0\.1:19443 ssl crt /);
        expect(bind).not.toMatch(/accept-proxy/);
        // Only the listener moved: fe_sni routes as before.
        const rules = (config) =>
          section(config, 'frontend fe_sni')
            .split('\n')
            .filter((line) => !line.startsWith('  bind '));
        expect(rules(direct.config)).toEqual(rules(hop.config));
      });

      test('LAB_ROUTER_HTTP2: h2 on edge and re-encrypt through route certificates in a crt-list, as the router does', () => {
        const rendered = render({ router: { http2: true }, routeCerts: certs.routeCerts });
        valid(rendered);
        expect(rendered.alpn).toBe('h2,http/1.1');
        expect(section(rendered.config, 'frontend fe_sni')).toMatch(
          / crt-list \S+\/cert_config\.map accept-proxy/,
        );
        expect(section(rendered.config, 'frontend fe_no_sni')).not.toMatch(/crt-list|alpn h2/);
        expect(rendered.maps['cert_config.map']).toEqual(
          TLS_HOSTS.map((host) => `${certs.routeCerts[host]} [alpn h2,http/1.1] ${host}`),
        );
        expect(rendered.config).toMatch(
          /server pod:\S+:https:\S+ \S+ weight 1 ssl alpn h2,http\/1\.1( no-sni-auto)? verifyhost/,
        );
      });

      test('re-encrypt servers turn sni-auto off where HAProxy has it (3.3 on), and verify the service name', () => {
        const rendered = render();
        valid(rendered);
        const major = haproxy.version.split('.').slice(0, 2).join('.');
        expect(haproxy.sniAuto).toBe(['3.3', '3.4', '3.5'].includes(major));
        for (const line of rendered.config.match(/^ {2}server pod:\S+:https:.* ssl .*$/gm)) {
          expect(line.includes(' no-sni-auto ')).toBe(haproxy.sniAuto);
          expect(line).toMatch(/ verifyhost data-service\.router-lab\.svc verify required /);
        }
      });

      test('every HTTP frontend denies an empty Content-Length and strips the twelve X-SSL* headers before routing', () => {
        const rendered = render();
        for (const fe of ['frontend public', 'frontend fe_sni', 'frontend fe_no_sni']) {
          const block = section(rendered.config, `${fe}\n`);
          expect(block).toContain('http-request deny if { hdr_len(content-length) 0 }');
          expect(block.match(/^ {2}http-request del-header X-SSL\S*$/gm)).toHaveLength(12);
          expect(block).toContain('http-request set-header Host %[req.hdr(Host),lower]');
          expect(block.indexOf('del-header X-SSL-Issuer')).toBeLessThan(block.indexOf('use_backend'));
        }
        expect(section(rendered.config, 'frontend public\n')).toContain(
          'http-request redirect location https://%[req.hdr(host),regsub(:[0-9]+$,,)]:19443%[url] code 302 if secure_redirect',
        );
      });

      test("LAB_OPENSHIFT_RELEASE: 4.22 drops the DHE ciphers and sets the groups this HAProxy's OpenSSL has", () => {
        const old = render({ router: { openshiftRelease: '4.21' } });
        expect(old.config).toMatch(/ssl-default-bind-ciphers \S*DHE-RSA-AES128-GCM-SHA256/);
        expect(old.config).not.toMatch(/ssl-default-bind-curves/);
        expect(old.tls.groups).toBeNull();
        const current = render();
        valid(current);
        expect(current.config).not.toMatch(/ssl-default-bind-ciphers \S*:DHE-/);
        expect([...current.tls.groups, ...current.tls.groupsMissing].sort()).toEqual(
          ['X25519MLKEM768', 'X25519', 'P-256', 'P-384', 'P-521'].sort(),
        );
        expect(current.config).toContain(`ssl-default-bind-curves ${current.tls.groups.join(':')}`);
        // OpenSSL 3.0 has no ML-KEM: the hybrid group is left out, and the configuration says so.
        if (/^OpenSSL 3\.[0-4]\./.test(haproxy.openssl)) {
          expect(current.tls.groupsMissing).toEqual(['X25519MLKEM768']);
          expect(current.config).toMatch(/lacks X25519MLKEM768, so it is left out/);
        }
      });

      test('the groups a binary accepted are remembered, by later processes too; a refusal is asked again', () => {
        const tlsProfile = require.resolve('../../lib/lab/haproxy/tls-profile');
        const { supportedGroups } = require(tlsProfile);
        const groups = ['X25519', 'P-256'];
        expect(supportedGroups(binary.file, groups, certs.defaultPem).supported).toEqual(groups);
        // Without a certificate to load every haproxy -c fails: only what was remembered holds.
        const gone = path.join(dir, 'no-such.pem');
        expect(supportedGroups(binary.file, [...groups, 'X448'], gone)).toEqual({
          supported: groups,
          missing: ['X448'],
        });
        // Another process (the next lab:up) reads what this one learned.
        const ask = `const [file, binary, cert] = process.argv.slice(1);
          console.log(JSON.stringify(require(file).supportedGroups(binary, ['X25519'], cert)));`;
        const later = execFileSync(process.execPath, ['-e', ask, tlsProfile, binary.file, gone], {
          encoding: 'utf8',
        });
        expect(JSON.parse(later)).toEqual({ supported: ['X25519'], missing: [] });
      });

      test('balance comes from the Route annotation; LAB_PASSTHROUGH_BALANCE overrides passthrough only', () => {
        const rendered = render();
        expect(rendered.balance.passthrough).toEqual({
          balance: 'random',
          manifest: 'random',
          override: null,
        });
        const backend = (r) => section(rendered.config, `backend ${r.backend}`);
        for (const r of routes) expect(backend(r)).toMatch(/^ {2}balance random$/m);
        const overridden = render({ router: { passthroughBalance: 'source' } });
        expect(overridden.balance.passthrough).toEqual({
          balance: 'source',
          manifest: 'random',
          override: 'source',
        });
        const pt = routes.find((r) => r.termination === 'passthrough');
        expect(section(overridden.config, `backend ${pt.backend}`)).toMatch(/^ {2}balance source$/m);
        // Without the annotation, the router's own defaults: random for HTTP, source for passthrough.
        const bare = routes.map((r) => ({ ...r, balance: null }));
        expect(render({ routes: bare }).balance).toMatchObject({
          http: { balance: 'random' },
          passthrough: { balance: 'source', manifest: 'source' },
        });
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
        expect(byTermination.http).toMatchObject({
          insecurePolicy: null,
          timeout: '60s',
          disableCookies: true,
        });
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
        const manifest = fs
          .readFileSync(routeManifestPath('edge'), 'utf8')
          .replace(/^.*disable_cookies.*$/m, '');
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
        expect(() => checkRouterConfig(bad, binary.file)).toThrow(
          /haproxy -c rejected .*bad\.cfg[\s\S]*no-such-keyword/,
        );
      });
    },
  );
}
