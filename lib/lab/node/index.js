'use strict';
// The lab's Kubernetes node (LAB_PODS=yes): bridge, private mount namespace, containerd with the
// lab's images, kubelet, controllers, kube-proxy, CoreDNS, k6-operator. stopNode undoes all of
// it: pods, processes, mounts, cgroups, the bridge and kube-proxy's tables (docs/pods.md).
const fs = require('node:fs');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { setTimeout: sleep } = require('node:timers/promises');
const { ensureImages } = require('../../images');
const { KUBE_APISERVER_VERSION } = require('../../setup/kubernetes-build');
const { isAlive } = require('../../core/processes');
const { processState, stopRecorded } = require('../common/pids');
const { nodeAddresses } = require('./addresses');
const { startMountNamespace } = require('./mount-namespace');
const { startContainerd, importImages } = require('./containerd');
const { startKubelet } = require('./kubelet');
const { podPids, removeCgroupRoot } = require('./cgroups');
const { startControllers } = require('./controllers');
const { createRouterService } = require('./router-service');
const { startK6Operator } = require('./k6-operator');

const run = promisify(execFile);

/** The bridge the pods join, with the node's address: made before anything listens on it. */
async function createBridge({ bridge, gateway, podCidr }) {
  await run('ip', ['link', 'add', bridge, 'type', 'bridge']);
  await run('ip', ['addr', 'add', `${gateway}/${podCidr.split('/')[1]}`, 'dev', bridge]);
  await run('ip', ['link', 'set', bridge, 'up']);
}

/**
 * Starts the node against the running control plane `kube` ({ kubeconfig, caFile, saKey, admin });
 * resolves { addresses, images }: the images' references by name and kustomize's mapping.
 */
async function startNode(lab, kube) {
  const { labDir, signal, step } = lab;
  const addresses = nodeAddresses(labDir);
  step('Images for the pods (built once, then taken from .tools/images)');
  const images = await ensureImages({ kubernetesVersion: KUBE_APISERVER_VERSION, log: lab.log });
  const ref = Object.fromEntries(images.map((i) => [i.name, i.ref]));
  step(
    `Node ${addresses.nodeName}: bridge ${addresses.bridge} at ${addresses.gateway}, pods in ${addresses.podCidr}, Services in ${addresses.serviceCidr}`,
  );
  await createBridge(addresses);
  const holder = await startMountNamespace(labDir, { signal });
  await startContainerd(labDir, { holderPid: holder.pid, addresses, sandboxImage: ref.pause, signal });
  await importImages(
    labDir,
    images.map((i) => i.archive),
  );
  step('kubelet, kube-controller-manager, kube-scheduler, kube-proxy (nftables), CoreDNS, k6-operator');
  const kubelet = await startKubelet(labDir, { holderPid: holder.pid, addresses, kube, signal });
  await startControllers(labDir, { kube, addresses });
  await createRouterService(kube.admin, { addresses, ports: lab.ports });
  await startK6Operator(labDir, { kube, certs: lab.certs, holderPid: holder.pid, signal });
  return { addresses, images, kubeletPort: kubelet.ports.kubelet };
}

/** Signals every pod process, then waits up to `timeoutMs` for them to be gone; kills the rest. */
async function stopPods(cgroupRoot, { timeoutMs = 5000 } = {}) {
  const signalAll = (sig) =>
    podPids(cgroupRoot).forEach((pid) => {
      try {
        process.kill(pid, sig);
      } catch {
        /* gone */
      }
    });
  signalAll('SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (podPids(cgroupRoot).some(isAlive) && Date.now() < deadline) await sleep(100);
  signalAll('SIGKILL');
}

/** Processes in the mount namespace of `holderPid` (containerd's shims among them), but the holder. */
function namespaceMembers(holderPid) {
  let ns;
  try {
    ns = fs.readlinkSync(`/proc/${holderPid}/ns/mnt`);
  } catch {
    return [];
  }
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && Number(d) !== holderPid)
    .filter((d) => {
      try {
        return fs.readlinkSync(`/proc/${d}/ns/mnt`) === ns;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Order in which the node's processes stop: what starts pods first, the namespace last. */
const NODE_STOP_ORDER = [
  'kubelet',
  'kube-controller-manager',
  'kube-scheduler',
  'kube-proxy',
  'coredns',
  'k6-operator',
  'containerd',
  'node-namespace',
];

/**
 * Stops the node whose process records are `records` (role 'node'): the pods, then each process in
 * NODE_STOP_ORDER, containerd's shims, the namespace; then removes cgroups, kube-proxy's tables and
 * the bridge. Resolves [{ name, pid, result }] for the records, in the order stopped.
 */
async function stopNode(labDir, records) {
  const addresses = nodeAddresses(labDir);
  const rank = (r) => NODE_STOP_ORDER.indexOf(r.name);
  const ordered = [...records].sort((a, b) => rank(a) - rank(b));
  const holder = records.find((r) => r.name === 'node-namespace');
  const stopped = [];
  // The kubelet first, so that it restarts nothing; then the pods.
  for (const r of ordered.filter((x) => x.name === 'kubelet'))
    stopped.push({ ...r, result: await stopRecorded(labDir, r) });
  await stopPods(addresses.cgroupRoot);
  for (const r of ordered.filter((x) => x.name !== 'kubelet' && x !== holder))
    stopped.push({ ...r, result: await stopRecorded(labDir, r) });
  if (holder && processState(holder) === 'running') {
    for (const pid of namespaceMembers(holder.pid))
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
  }
  if (holder) stopped.push({ ...holder, result: await stopRecorded(labDir, holder) });
  if (fs.existsSync(`/sys/class/net/${addresses.bridge}`))
    await run('ip', ['link', 'delete', addresses.bridge]);
  for (const family of ['ip', 'ip6'])
    await run('nft', ['delete', 'table', family, 'kube-proxy']).catch(() => {});
  await removeCgroupRoot(addresses.cgroupRoot);
  return stopped;
}

module.exports = { startNode, stopNode, namespaceMembers };
