'use strict';
// The node's containerd: its own root, state and socket under the lab's directory, Debian's runc,
// the system's CNI plugins with the lab's bridge, and the lab's images imported (never pulled).
const fs = require('node:fs');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { requireTool } = require('../../core/tools');
const { cniDir } = require('../../setup/node-tools');
const { launch, assertRunning, waitUntil, logTail } = require('../common/stack');
const { inMountNamespace } = require('./mount-namespace');
const { nodePaths } = require('./paths');

const run = promisify(execFile);
/** Where containerd listens inside the node's mount namespace (the kubelet's default). */
const SOCKET_INSIDE = '/run/containerd/containerd.sock';

/** containerd's configuration (version 2). */
function containerdConfig(p, { sandboxImage }) {
  const q = JSON.stringify;
  return `version = 2
root = ${q(p.containerdRoot)}
state = ${q(p.containerdState)}
# Snapshotters this machine cannot use, and tracing nobody reads.
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.internal.v1.tracing"]

[grpc]
  address = ${q(SOCKET_INSIDE)}

[plugins."io.containerd.internal.v1.opt"]
  path = ${q(p.containerdOpt)}

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = ${q(sandboxImage)}
  # The lab runs without CAP_SYS_RESOURCE here: runc cannot lower a pod's OOM score otherwise.
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = ${q(cniDir())}
    conf_dir = ${q(p.cniConfDir)}
  [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
    runtime_type = "io.containerd.runc.v2"
`;
}

/** The bridge network the pods join: addresses from the lab's /24, the bridge's .1 their gateway. */
function cniConfig(p, addresses) {
  return {
    cniVersion: '1.0.0',
    name: 'router-lab',
    plugins: [
      {
        type: 'bridge',
        bridge: addresses.bridge,
        isGateway: true,
        ipMasq: false,
        hairpinMode: true,
        ipam: {
          type: 'host-local',
          ranges: [[{ subnet: addresses.podCidr, gateway: addresses.gateway }]],
          // Everything off the bridge (ClusterIPs, the host) through the node.
          routes: [{ dst: '0.0.0.0/0' }],
          dataDir: p.cniDataDir,
        },
      },
    ],
  };
}

/** `ctr` against the node's containerd, in Kubernetes's namespace. */
const ctr = (labDir, args) =>
  run(requireTool('ctr'), ['--address', nodePaths(labDir).socket, '--namespace', 'k8s.io', ...args], {
    maxBuffer: 16 * 1024 * 1024,
  });

/** Starts containerd in the node's mount namespace; resolves its record once it answers. */
async function startContainerd(labDir, { holderPid, addresses, sandboxImage, signal }) {
  const p = nodePaths(labDir);
  for (const dir of [p.containerdRoot, p.containerdState, p.containerdOpt, p.cniConfDir, p.cniDataDir])
    fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(p.containerdConfig, containerdConfig(p, { sandboxImage }));
  fs.writeFileSync(
    `${p.cniConfDir}/10-router-lab.conflist`,
    `${JSON.stringify(cniConfig(p, addresses), null, 2)}\n`,
  );
  const [file, args] = inMountNamespace(holderPid, requireTool('containerd'), [
    '--config',
    p.containerdConfig,
  ]);
  const record = launch(labDir, { name: 'containerd', role: 'node', file, args, match: 'containerd' });
  await waitUntil(
    async () => {
      assertRunning(labDir, record);
      await ctr(labDir, ['version']);
      return true;
    },
    {
      timeoutMs: 30000,
      what: `containerd answering on ${p.socket}`,
      signal,
      diagnose: () => logTail(labDir, 'containerd'),
    },
  );
  return record;
}

/** Imports each OCI archive into the node's containerd (a few seconds each). */
async function importImages(labDir, archives) {
  for (const archive of archives) await ctr(labDir, ['images', 'import', archive]);
}

/** The images the node's containerd holds, by name. */
async function listImages(labDir) {
  const { stdout } = await ctr(labDir, ['images', 'list', '--quiet']);
  return stdout.split('\n').filter((line) => line && !line.startsWith('sha256:'));
}

module.exports = { startContainerd, importImages, listImages, containerdConfig, cniConfig, SOCKET_INSIDE };
