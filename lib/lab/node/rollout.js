'use strict';
// lab:rollout on a lab with pods: `kubectl rollout restart` of the Deployment, as on a cluster, and
// the new pods become the lab's instances. The manifests' probes, drain delay and maxUnavailable 0
// are what keep every request answered; docs/pods.md says what was measured.
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { requireTool } = require('../../core/tools');
const names = require('../../core/manifest-names');
const { NAMESPACE } = require('../common/routes');
const { readLabState, writeLabState } = require('../common/state');
const { waitUntil } = require('../common/stack');
const { podsOf, podInstances } = require('./workloads');
const { labClient } = require('./pod-faults');

const run = promisify(execFile);

/** Restarts the Deployment's pods one by one and waits for the rollout; resolves the new lab state. */
async function rolloutPods(labDir, { log = () => {}, signal, timeoutS = 300 } = {}) {
  const state = readLabState(labDir);
  const kubectl = (...args) =>
    run(requireTool('kubectl'), ['--kubeconfig', state.router.kube.kubeconfig, '-n', NAMESPACE, ...args], {
      signal,
      timeout: (timeoutS + 10) * 1000,
    });
  const deployment = `deployment/${names.APP}`;
  const begin = Date.now();
  log(
    `• kubectl rollout restart ${deployment}: a new pod, ready, then an old one drained (maxUnavailable 0)`,
  );
  await kubectl('rollout', 'restart', deployment);
  await kubectl('rollout', 'status', deployment, `--timeout=${timeoutS}s`);
  // The rollout is done when the old pods are gone, not when the new ones are ready: each old pod
  // still serves for its drain delay after SIGTERM.
  const admin = labClient(state);
  const service = async () =>
    (await podsOf(admin)).filter((p) => p.labels['app.kubernetes.io/name'] === names.APP);
  await waitUntil(async () => !(await service()).some((p) => p.terminating), {
    timeoutMs: timeoutS * 1000,
    intervalMs: 500,
    what: 'the old pods gone',
    signal,
  });
  const instances = podInstances(await service(), state.router.node.addresses.cgroupRoot);
  const now = readLabState(labDir);
  writeLabState(labDir, { ...now, instances: instances.map((i) => ({ ...now.instances[0], ...i })) });
  log(
    `  rolled out in ${((Date.now() - begin) / 1000).toFixed(1)} s: ${instances.map((i) => i.name).join(', ')}`,
  );
  return readLabState(labDir);
}

module.exports = { rolloutPods };
