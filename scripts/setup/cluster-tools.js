'use strict';
// Tools for validating the OpenShift manifests offline (kustomize, kubeconform, schemas, a real
// kube-apiserver). Filled in by the OpenShift deployment work.
module.exports = [];
