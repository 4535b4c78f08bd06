'use strict';
// k6-operator on the lab's node, as OperatorHub would install it: its CRDs, the operator as a lab
// process with the lab's credentials (its Jobs run on the node), and what OpenShift gives a TestRun
// around it: the trusted CA bundle k6 verifies the router with, storage for the results PVC.
const fs = require('node:fs');
const path = require('node:path');
const yaml = require('../../core/dependency').lazyDependency('js-yaml');
const { freePort } = require('../../core/ports');
const { operatorBin, crdFiles } = require('../../setup/k6-operator-build');
const { ensure } = require('../kube/api');
const { installCrds } = require('../kube/crds');
const { NAMESPACE } = require('../common/routes');
const { launch, waitUntil, assertRunning, logTail } = require('../common/stack');
const { request } = require('../common/client');
const { readKubeconfig } = require('../kube/kubeconfig');
const { inMountNamespace } = require('./mount-namespace');
const { kustomizeImages } = require('../../images');
const { RUNNER_USER } = require('../../images/k6');
const { nodePaths } = require('./paths');
const { hostPathVolume } = require('./workloads');

const RUNNER_UID = Number(RUNNER_USER);
/** The names the k6-testrun component uses (overlays/components/k6-testrun). */
const TRUSTED_CA = 'k6-trusted-ca';
const RESULTS_PV = 'router-lab-k6-results';

/**
 * The ConfigMap OpenShift's CA injection fills: here the lab's CA (the router's certificate) and
 * its service CA (the data service's, which passthrough shows the client).
 */
function trustedCaConfigMap(pems) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: TRUSTED_CA, namespace: NAMESPACE },
    data: { 'ca-bundle.crt': pems.join('') },
  };
}

/** A ReadWriteMany hostPath volume for the results PVC: every runner is on this one node. */
const resultsVolume = (dir) =>
  hostPathVolume(RESULTS_PV, dir, { accessMode: 'ReadWriteMany', reclaim: 'Retain' });

/** Where client-go's in-cluster configuration reads a pod's service account. */
const SERVICE_ACCOUNT_DIR = '/run/secrets/kubernetes.io/serviceaccount';

/**
 * The operator reads the initializer's output (pod logs) with the in-cluster configuration only
 * (rest.InClusterConfig in its internal/controller/common.go), not its kubeconfig. So it runs in
 * the node's mount namespace, whose /run (the machine's is untouched) gets a pod's service-account
 * files, and the environment names the API server as a pod's does. Resolves that environment.
 */
function inClusterConfig(holderPid, kubeconfig) {
  const config = readKubeconfig(kubeconfig);
  const dir = `/proc/${holderPid}/root${SERVICE_ACCOUNT_DIR}`;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'token'), config.token, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'ca.crt'), config.ca);
  fs.writeFileSync(path.join(dir, 'namespace'), NAMESPACE);
  const server = new URL(config.server);
  return { KUBERNETES_SERVICE_HOST: server.hostname, KUBERNETES_SERVICE_PORT: server.port };
}

/** Installs the CRDs, starts the operator and prepares what a TestRun mounts. */
async function startK6Operator(labDir, { kube, certs, holderPid, signal }) {
  const crds = crdFiles().map((f) => yaml.load(fs.readFileSync(f, 'utf8')));
  // The operator's own CRDs replace the lab's TestRun stand-in (lib/setup/schemas), whose status
  // lacks the conditions the operator writes.
  await installCrds(kube.admin, crds, { signal, replace: true });
  const health = await freePort();
  const [file, args] = inMountNamespace(holderPid, operatorBin, [
    '--metrics-bind-address=0',
    `--health-probe-bind-address=127.0.0.1:${health}`,
  ]);
  const env = { ...process.env, KUBECONFIG: kube.kubeconfig, ...inClusterConfig(holderPid, kube.kubeconfig) };
  const record = launch(labDir, { name: 'k6-operator', role: 'node', file, args, env, match: 'k6-operator' });
  // A TestRun nobody picks up would wait out cluster:k6's timeout: the operator must be up.
  await waitUntil(
    async () => {
      assertRunning(labDir, record);
      return (
        (await request(`http://127.0.0.1:${health}/readyz`, { timeoutMs: 1000 }).catch(() => null))
          ?.status === 200
      );
    },
    { timeoutMs: 30000, what: 'k6-operator ready', signal, diagnose: () => logTail(labDir, 'k6-operator') },
  );
  // Created, not applied: cluster:k6's `kubectl apply` of the empty ConfigMap keeps this data,
  // as it keeps what OpenShift's injection writes.
  await ensure(
    kube.admin,
    `/api/v1/namespaces/${NAMESPACE}/configmaps`,
    trustedCaConfigMap([certs.labCA, certs.serviceCA].map((f) => fs.readFileSync(f, 'utf8'))),
  );
  const dir = path.join(nodePaths(labDir).root, 'volumes', 'k6-results');
  fs.mkdirSync(dir, { recursive: true });
  // The runners' user (the runner image's) writes here: a hostPath volume is not chowned to any
  // fsGroup; the reader pod runs the same image.
  fs.chownSync(dir, RUNNER_UID, RUNNER_UID);
  fs.chmodSync(dir, 0o750);
  await ensure(kube.admin, '/api/v1/persistentvolumes', resultsVolume(dir));
  return record;
}

/**
 * Each runner's CPU request on the lab's node: the data service's pods leave about 300m of its
 * 2 cores, and a request only places the pod (no limit: a runner uses what it needs).
 */
const RUNNER_CPU = '100m';

/** npm run cluster:k6 against this lab: its kubeconfig, the TestRun's images as built here. */
function clusterK6Command(kubeconfig, images) {
  const testRunImages = kustomizeImages(images.filter((i) => i.name.startsWith('k6-')));
  const mapping = testRunImages.map((i) => `${i.name}=${i.newName}:${i.newTag}`).join(',');
  return `KUBECONFIG=${kubeconfig} npm run cluster:k6 -- --images ${mapping} --runner-cpu ${RUNNER_CPU}`;
}

module.exports = { startK6Operator, clusterK6Command, trustedCaConfigMap, resultsVolume };
