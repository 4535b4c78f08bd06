'use strict';
// Where the node (LAB_PODS=yes) keeps its state, all under the lab's directory.
const path = require('node:path');

/** The node's directories and files in `labDir`. */
function nodePaths(labDir) {
  const root = path.join(labDir, 'node');
  return {
    root,
    // containerd's socket: the node's processes see this directory at /run/containerd.
    runDir: path.join(root, 'run'),
    socket: path.join(root, 'run', 'containerd.sock'),
    containerdConfig: path.join(root, 'containerd.toml'),
    containerdRoot: path.join(root, 'containerd', 'root'),
    containerdState: path.join(root, 'containerd', 'state'),
    containerdOpt: path.join(root, 'containerd', 'opt'),
    cniConfDir: path.join(root, 'cni', 'net.d'),
    cniDataDir: path.join(root, 'cni', 'ipam'),
    kubeletRoot: path.join(root, 'kubelet'),
    kubeletConfig: path.join(root, 'kubelet.yaml'),
    podLogs: path.join(root, 'pod-logs'),
    corefile: path.join(root, 'Corefile'),
  };
}

module.exports = { nodePaths };
