'use strict';
// The node's private mount namespace: /run is a tmpfs of its own there, with the lab's socket
// directory at /run/containerd (where the kubelet's cAdvisor looks for containerd); the machine's
// /run is untouched, and every mount made inside ends with the namespace's last process.
const fs = require('node:fs');
const { launch, assertRunning, waitUntil } = require('../common/stack');
const { nodePaths } = require('./paths');

/** A process that holds the namespace open: the others join it with nsenter. */
async function startMountNamespace(labDir, { signal }) {
  const { runDir } = nodePaths(labDir);
  fs.mkdirSync(runDir, { recursive: true });
  const script =
    'set -e; mount -t tmpfs -o mode=755 router-lab-run /run; mkdir -p /run/containerd; ' +
    'mount --bind "$1" /run/containerd; exec sleep infinity';
  const holder = launch(labDir, {
    name: 'node-namespace',
    role: 'node',
    file: 'unshare',
    args: ['--mount', '--propagation', 'private', '--', 'sh', '-c', script, 'sh', runDir],
    match: 'sleep',
  });
  // Ready once sleep runs, i.e. the mounts are made.
  await waitUntil(
    () => {
      assertRunning(labDir, holder);
      return fs.readFileSync(`/proc/${holder.pid}/comm`, 'utf8').trim() === 'sleep';
    },
    { timeoutMs: 5000, what: "the node's mount namespace", signal },
  );
  return holder;
}

/** [file, args] that runs `file args` inside the namespace held by `holderPid` (same pid). */
const inMountNamespace = (holderPid, file, args) => [
  'nsenter',
  [`--mount=/proc/${holderPid}/ns/mnt`, '--', file, ...args],
];

module.exports = { startMountNamespace, inMountNamespace };
