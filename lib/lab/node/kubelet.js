'use strict';
// The node's kubelet: containerd's pods on the lab's bridge, cgroups under a root of the lab's own,
// the API server as its kubeconfig names it. Its addresses are the bridge's (../node/addresses.js).
const fs = require('node:fs');
const { requireTool } = require('../../core/tools');
const { freePort } = require('../../core/ports');
const { launch, assertRunning, waitUntil, logTail } = require('../common/stack');
const { inMountNamespace } = require('./mount-namespace');
const { SOCKET_INSIDE } = require('./containerd');
const { nodePaths } = require('./paths');
const { createCgroupRoot } = require('./cgroups');

/** KubeletConfiguration (JSON is YAML) for this machine and the lab. */
function kubeletConfig(p, { addresses, ports, clientCA }) {
  return {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    // cgroup v1 without systemd as PID 1: cgroupfs, under the lab's own root (created and
    // removed by the lab).
    cgroupDriver: 'cgroupfs',
    cgroupRoot: addresses.cgroupRoot,
    failSwapOn: false,
    containerRuntimeEndpoint: `unix://${SOCKET_INSIDE}`,
    address: addresses.gateway,
    port: ports.kubelet,
    readOnlyPort: 0,
    healthzBindAddress: '127.0.0.1',
    healthzPort: ports.kubeletHealthz,
    // The API server's client certificate (logs, exec); nobody else.
    authentication: {
      anonymous: { enabled: false },
      webhook: { enabled: false },
      x509: { clientCAFile: clientCA },
    },
    authorization: { mode: 'AlwaysAllow' },
    clusterDNS: [addresses.gateway],
    clusterDomain: addresses.clusterDomain,
    podLogsDir: p.podLogs,
    // The images are imported, never pulled: nothing may collect them.
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '1%', 'imagefs.available': '1%' },
    serializeImagePulls: false,
    // No KUBE-FIREWALL, KUBE-IPTABLES-HINT or canary chains in the machine's netfilter tables.
    makeIPTablesUtilChains: false,
    maxPods: 110,
  };
}

/** Starts the kubelet in the node's mount namespace; resolves its record once the node is Ready. */
async function startKubelet(labDir, { holderPid, addresses, kube, signal }) {
  const p = nodePaths(labDir);
  const ports = { kubelet: await freePort(addresses.gateway), kubeletHealthz: await freePort() };
  createCgroupRoot(addresses.cgroupRoot);
  fs.mkdirSync(p.podLogs, { recursive: true });
  fs.writeFileSync(
    p.kubeletConfig,
    `${JSON.stringify(kubeletConfig(p, { addresses, ports, clientCA: kube.caFile }), null, 2)}\n`,
  );
  const [file, args] = inMountNamespace(holderPid, requireTool('kubelet'), [
    `--config=${p.kubeletConfig}`,
    `--kubeconfig=${kube.kubeconfig}`,
    `--root-dir=${p.kubeletRoot}`,
    `--hostname-override=${addresses.nodeName}`,
    `--node-ip=${addresses.gateway}`,
    // cAdvisor reads each container's CPU this often (10 s by default): the lab's Prometheus
    // scrapes every second, so a sample of a few seconds sees fresh figures.
    '--housekeeping-interval=1s',
    '--v=1',
  ]);
  const record = launch(labDir, { name: 'kubelet', role: 'node', file, args, match: 'kubelet' });
  await waitUntil(
    async () => {
      assertRunning(labDir, record);
      const node = await kube.admin.get(`/api/v1/nodes/${addresses.nodeName}`);
      return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    },
    {
      timeoutMs: 60000,
      what: `node ${addresses.nodeName} Ready`,
      signal,
      diagnose: () => logTail(labDir, 'kubelet'),
    },
  );
  return { record, ports };
}

module.exports = { startKubelet, kubeletConfig };
