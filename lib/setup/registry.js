'use strict';
// Every tool the project needs, in one list: where it comes from, which minimum version, and
// which command needs it ('service' < 'lab' < 'test' < 'openshift': each includes the ones before).
const { findTool, findOnPath, toolVersion, compareVersions } = require('../core/tools');
const { systemTool } = require('./system-tool');
const { goInstall } = require('./go-install');
const { npmDeps } = require('./npm-deps');
const { HAPROXY_PINS, HAPROXY_PIN, haproxyVersion, buildHaproxy, locatePinned } = require('./haproxy-build');
const { upstreamVersion, canBuildHere } = require('./debian-source');
const {
  OPENSSL_VERSION,
  OPENSSL_HAPROXY_BIN,
  haproxyOpenssl,
  buildHaproxyOnOpenssl35,
} = require('./openssl-build');
const { openshiftRouterTool } = require('./openshift-router-build');
const { haloadTool } = require('./haload-build');
const { RELEASE_PINS, releaseTool } = require('./haproxy-release-build');

const K6_MODULE = 'go.k6.io/k6';
const K6_VERSION = 'v1.8.1';

const chromiumBins = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

const TOOLS = [
  npmDeps('.', 'service'),
  npmDeps('data-service', 'service'),
  systemTool({
    name: 'redis-server',
    bins: ['redis-server', 'redis-cli'],
    versionArgs: ['--version'],
    versionPattern: /v=(\d+\.\d+\.\d+)/,
    min: '6.2.0',
    packages: { apt: ['redis-server'], dnf: ['redis'], brew: ['redis'] },
    neededFor: 'service',
  }),
  systemTool({
    name: 'openssl',
    versionArgs: ['version'],
    versionPattern: /(\d+\.\d+\.\d+)/,
    min: '1.1.1',
    packages: { apt: ['openssl'], dnf: ['openssl'], brew: ['openssl@3'] },
    neededFor: 'service',
  }),
  // The system's HAProxy: the fallback router, and the second HAProxy the tests run against.
  systemTool({
    name: 'haproxy',
    versionArgs: ['-v'],
    versionPattern: /version (\d+\.\d+\.\d+)/,
    min: '2.6.0',
    packages: { apt: ['haproxy'], dnf: ['haproxy'], brew: ['haproxy'] },
    neededFor: 'lab',
    onPathOnly: true,
  }),
  {
    name: `haproxy ${upstreamVersion(HAPROXY_PIN.debianVersion)} (router build)`,
    neededFor: 'lab',
    locate: () => locatePinned(HAPROXY_PIN),
    install(log) {
      buildHaproxy(log);
    },
    // Where it cannot be built, the lab runs the system's HAProxy (findTool's next choice).
    fallback() {
      const file = findOnPath('haproxy');
      const version = file && haproxyVersion(file);
      return file ? { path: file, version: version || 'unknown version', tooOld: false } : null;
    },
  },
  // The LTS branch before it, for comparisons: built for the tests where it can be (elsewhere its
  // test skips), and on request at any level (setup --with haproxy-3.0).
  {
    name: `haproxy ${upstreamVersion(HAPROXY_PINS['3.0'].debianVersion)} (3.0 branch)`,
    neededFor: 'test',
    onlyWhere: () => canBuildHere(HAPROXY_PINS['3.0']),
    extra: 'haproxy-3.0',
    locate: () => locatePinned(HAPROXY_PINS['3.0']),
    install(log) {
      buildHaproxy(log, { pin: HAPROXY_PINS['3.0'] });
    },
  },
  // The branch OpenShift 4.16–4.22 run, and the one 5.2 will, from upstream's release commits: for
  // the tests where the mirror has them, and on request (setup --with haproxy-2.8, haproxy-3.4).
  releaseTool(RELEASE_PINS['2.8']),
  releaseTool(RELEASE_PINS['3.4']),
  // On request only (setup --with openssl-3.5): the same HAProxy on another TLS library.
  {
    name: `haproxy ${upstreamVersion(HAPROXY_PIN.debianVersion)} on OpenSSL ${OPENSSL_VERSION}`,
    extra: 'openssl-3.5',
    locate() {
      const version = haproxyVersion(OPENSSL_HAPROXY_BIN);
      if (!version) return null;
      const openssl = haproxyOpenssl(OPENSSL_HAPROXY_BIN) ?? 'no OpenSSL';
      return {
        path: OPENSSL_HAPROXY_BIN,
        version: `${version}, ${openssl.split(' ').slice(0, 2).join(' ')}`,
        tooOld:
          !openssl.startsWith(`OpenSSL ${OPENSSL_VERSION}`) || !version.startsWith(`${HAPROXY_PIN.branch}.`),
        min: `${HAPROXY_PIN.branch}.x on OpenSSL ${OPENSSL_VERSION}`,
      };
    },
    install(log) {
      buildHaproxyOnOpenssl35(log);
    },
  },
  {
    name: 'k6',
    neededFor: 'lab',
    locate() {
      const file = findTool('k6');
      if (!file) return null;
      const version = ((toolVersion(file, ['version']) || '').match(/v(\d+\.\d+\.\d+)/) || [])[1];
      // k6 1.x has the web dashboard and the summary format the matrix reads.
      return {
        path: file,
        version: version || 'unknown version',
        tooOld: !version || compareVersions(version, '1.0.0') < 0,
        min: '1.0.0',
      };
    },
    install: (log) => goInstall(K6_MODULE, K6_VERSION, log),
  },
  systemTool({
    name: 'wrk',
    versionArgs: ['--version'],
    versionPattern: /(\d+\.\d+\.\d+)/,
    packages: { apt: ['wrk'], dnf: ['wrk'], brew: ['wrk'] },
    // npm run bench:service drives the data service with wrk; the matrix runs its resumed-TLS
    // close cells with it (k6 cannot resume) and cross-checks k6 with it.
    neededFor: 'service',
    optional:
      'for npm run bench:service, the matrix resumed-TLS cells (or --tls-session full) and --cross-check',
  }),
  // The second generator where wrk cannot go (SNI for passthrough): the matrix's --cross-check.
  haloadTool,
  {
    ...systemTool({
      name: 'chromium',
      versionArgs: ['--version'],
      versionPattern: /(\d+\.\d+\.\d+)/,
      packages: { apt: ['chromium'], dnf: ['chromium'] },
      neededFor: 'test',
    }),
    locate() {
      const file = chromiumBins.map((b) => findOnPath(b)).find(Boolean);
      if (!file) return null;
      const version = ((toolVersion(file, ['--version']) || '').match(/(\d+\.\d+\.\d+)/) || [])[1];
      return { path: file, version: version || 'unknown version', tooOld: false };
    },
  },
  // The lab's small cluster monitoring (LAB_ROUTER=openshift): Prometheus scrapes the real
  // router's /metrics and the process exporter's per-process CPU; promtool loads test series.
  systemTool({
    name: 'prometheus',
    bins: ['prometheus', 'promtool'],
    versionArgs: ['--version'],
    versionPattern: /version (\d+\.\d+\.\d+)/,
    min: '2.33.0',
    packages: { apt: ['prometheus'], dnf: ['golang-github-prometheus'], brew: ['prometheus'] },
    neededFor: 'test',
  }),
  systemTool({
    name: 'prometheus-process-exporter',
    versionArgs: ['--version'],
    // Debian's build leaves the version empty and names its package revision.
    versionPattern: /revision: (\d+\.\d+\.\d+)/,
    min: '0.7.0',
    packages: { apt: ['prometheus-process-exporter'] },
    neededFor: 'test',
  }),
  ...require('./cluster-tools'),
  ...require('./node-tools').NODE_TOOLS,
  ...require('./gateway-tools').GATEWAY_TOOLS,
  openshiftRouterTool('5.0'),
  openshiftRouterTool('4.22'),
];

module.exports = { TOOLS, K6_VERSION, chromiumBins };
