'use strict';
// Tools for validating the OpenShift manifests offline: kustomize and kubeconform (built with Go),
// the schemas kubeconform checks against (PyPI and Go modules), and a real API server (etcd from
// the system's packages, kube-apiserver built from the Go module proxy). All for `npm test`.
const { findTool, toolVersion, compareVersions } = require('../core/tools');
const { goInstall, goModuleVersion } = require('./go-install');
const { installSystemPackages } = require('./system-packages');
const schemas = require('./validation-tools');
const { KUBERNETES_COMMANDS, kubernetesCommandTool } = require('./kubernetes-build');

const KUSTOMIZE = { module: 'sigs.k8s.io/kustomize/kustomize/v5', version: 'v5.8.2', min: '5.8.2' };
const KUBECONFORM = {
  module: 'github.com/yannh/kubeconform/cmd/kubeconform',
  version: 'v0.7.0',
  min: '0.7.0',
};
// The oldest etcd the API server test has run on (Debian 12's); 3.5 and later work too.
const ETCD_MIN = '3.4.22';

/** A tool whose version is the first x.y.z in the output of `<tool> <args>`. */
function versioned(name, args, min) {
  const file = findTool(name);
  if (!file) return null;
  const version = ((toolVersion(file, args) || '').match(/v?(\d+\.\d+\.\d+)/) || [])[1];
  return {
    path: file,
    version: version || 'unknown version',
    tooOld: !version || compareVersions(version, min) < 0,
    min,
  };
}

function kubeconform() {
  const found = versioned('kubeconform', ['-v'], KUBECONFORM.min);
  if (!found || found.version !== 'unknown version') return found;
  const version = goModuleVersion(found.path);
  return version ? { ...found, version, tooOld: compareVersions(version, KUBECONFORM.min) < 0 } : found;
}

module.exports = [
  {
    name: 'kustomize',
    neededFor: 'test',
    locate: () => versioned('kustomize', ['version'], KUSTOMIZE.min),
    install: (log) => goInstall(KUSTOMIZE.module, KUSTOMIZE.version, log),
  },
  {
    name: 'kubeconform',
    neededFor: 'test',
    locate: kubeconform,
    install: (log) => goInstall(KUBECONFORM.module, KUBECONFORM.version, log),
  },
  {
    name: 'kubernetes-schemas',
    neededFor: 'test',
    locate: schemas.locateKubernetesSchemas,
    install: schemas.installKubernetesSchemas,
  },
  {
    name: 'crd-schemas',
    neededFor: 'test',
    locate: schemas.locateCrdSchemas,
    install: schemas.installCrdSchemas,
  },
  {
    name: 'etcd',
    neededFor: 'test',
    locate: () => versioned('etcd', ['--version'], ETCD_MIN),
    install: (log) =>
      installSystemPackages('etcd', { apt: ['etcd-server'], dnf: ['etcd'], brew: ['etcd'] }, log),
  },
  ...KUBERNETES_COMMANDS.map((command) => kubernetesCommandTool(command, 'test')),
];
