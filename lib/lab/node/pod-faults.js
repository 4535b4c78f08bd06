'use strict';
// Faults injected through Kubernetes on a lab with pods (LAB_PODS=yes), as an operator or a node
// failure would: a pod deleted (gracefully, or at once), and the wait for its controller's new one.
const { kubeClient } = require('../kube/api');
const { readKubeconfig } = require('../kube/kubeconfig');
const { NAMESPACE } = require('../common/routes');
const { waitUntil } = require('../common/stack');

const PODS = `/api/v1/namespaces/${NAMESPACE}/pods`;

/** An administrator's client of the lab in `state` (lab.json), from its kubeconfig. */
const labClient = (state) => kubeClient(readKubeconfig(state.router.kube.kubeconfig));

const isReady = (pod) =>
  !pod.metadata.deletionTimestamp &&
  (pod.status.conditions || []).some((c) => c.type === 'Ready' && c.status === 'True');

/** The namespace's pods matching the label `selector` ('app.kubernetes.io/name=redis'). */
async function listPods(admin, selector) {
  return (await admin.get(`${PODS}?labelSelector=${encodeURIComponent(selector)}`)).items;
}

/**
 * Deletes pod `name`: `graceSeconds` null keeps the pod's own grace period (its preStop and drain
 * run), 0 kills it at once. Resolves its uid.
 */
async function deletePod(admin, name, { graceSeconds = null } = {}) {
  const pod = await admin.get(`${PODS}/${name}`);
  const body =
    graceSeconds === null
      ? undefined
      : { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: graceSeconds };
  await admin.call('DELETE', `${PODS}/${name}`, { body });
  return pod.metadata.uid;
}

/**
 * Waits until `count` pods matching `selector` are ready, none of them `goneUid` and none
 * terminating; resolves them. (A Job's finished pod under the same label is never ready.)
 */
async function waitReplaced(admin, { selector, count, goneUid, timeoutMs = 120000, signal }) {
  let pods = [];
  await waitUntil(
    async () => {
      pods = await listPods(admin, selector);
      const settled = pods.every((p) => !p.metadata.deletionTimestamp && p.metadata.uid !== goneUid);
      return settled && pods.filter(isReady).length === count;
    },
    {
      timeoutMs,
      intervalMs: 200,
      what: `${count} pods ${selector} ready again`,
      signal,
      diagnose: () => `\n${pods.map((p) => `  ${p.metadata.name}${isReady(p) ? ' ready' : ''}`).join('\n')}`,
    },
  );
  return pods.filter(isReady);
}

module.exports = { labClient, listPods, deletePod, waitReplaced, isReady };
