'use strict';
// A container's main process as the host sees it, from the kubelet's cgroups: the matrix samples
// its CPU and memory as it does an instance's of the process lab.
const fs = require('node:fs');
const path = require('node:path');
const { cgroupHierarchies } = require('./kubelet');

/** The directory of container `containerId` under `cgroupRoot`, in the first hierarchy. */
function containerCgroup(cgroupRoot, containerId) {
  const [hierarchy] = cgroupHierarchies();
  const find = (dir) => {
    if (!fs.existsSync(dir)) return null;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const sub = path.join(dir, entry.name);
      if (entry.name === containerId) return sub;
      const found = find(sub);
      if (found) return found;
    }
    return null;
  };
  return find(`${hierarchy}${cgroupRoot}`);
}

/** The lowest pid in the container's cgroup (its first process), or null. */
function podProcess(cgroupRoot, containerId) {
  if (!containerId) return null;
  const dir = containerCgroup(cgroupRoot, containerId);
  if (!dir) return null;
  const pids = fs
    .readFileSync(path.join(dir, 'cgroup.procs'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(Number);
  return pids.length ? Math.min(...pids) : null;
}

module.exports = { podProcess, containerCgroup };
