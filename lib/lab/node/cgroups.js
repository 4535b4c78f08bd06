'use strict';
// The node's cgroups (LAB_PODS=yes): the kubelet's root of the lab's own in every hierarchy, the
// pods' processes under it, a container's main process (the matrix samples it), and its removal.
const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');

/** The cgroup v1 hierarchies (or the v2 root) the kubelet makes its root in. */
function cgroupHierarchies(base = '/sys/fs/cgroup') {
  if (fs.existsSync(`${base}/cgroup.controllers`)) return [base];
  return fs
    .readdirSync(base)
    .map((h) => `${base}/${h}`)
    .filter((dir) => !fs.lstatSync(dir).isSymbolicLink() && fs.existsSync(`${dir}/cgroup.procs`));
}

/** Makes the lab's cgroup root in every hierarchy (the kubelet requires it to exist). */
function createCgroupRoot(root) {
  for (const h of cgroupHierarchies()) fs.mkdirSync(`${h}${root}`, { recursive: true });
}

/** The lines of a cgroup file, or none: a cgroup being removed reads as ENODEV or ENOENT. */
function readCgroupFile(file) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** The cgroup directories at and under `dir`, deepest first (the order rmdir needs). */
function cgroupTree(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return [...entries.filter((e) => e.isDirectory()).flatMap((e) => cgroupTree(`${dir}/${e.name}`)), dir];
}

/** Every pid in the lab's cgroup root (the pods' processes), from each hierarchy. */
function podPids(cgroupRoot) {
  const dirs = cgroupHierarchies().flatMap((h) => cgroupTree(`${h}${cgroupRoot}`));
  return [...new Set(dirs.flatMap((dir) => readCgroupFile(`${dir}/cgroup.procs`).map(Number)))];
}

/** The lowest pid in container `containerId`'s cgroup under `cgroupRoot` (its first process), or null. */
function containerProcess(cgroupRoot, containerId) {
  if (!containerId) return null;
  const [hierarchy] = cgroupHierarchies();
  const dir = cgroupTree(`${hierarchy}${cgroupRoot}`).find((d) => path.basename(d) === containerId);
  const pids = dir ? readCgroupFile(`${dir}/cgroup.procs`).map(Number) : [];
  return pids.length ? Math.min(...pids) : null;
}

/** Removes the cgroup root, deepest first; a cgroup still emptying gets a few tries. */
async function removeCgroupRoot(cgroupRoot) {
  for (const h of cgroupHierarchies()) {
    for (const dir of cgroupTree(`${h}${cgroupRoot}`)) {
      for (let attempt = 0; ; attempt++) {
        try {
          fs.rmdirSync(dir);
          break;
        } catch (err) {
          if (err.code === 'ENOENT') break;
          if (attempt >= 20)
            throw new Error(`could not remove cgroup ${dir}: ${err.message}`, { cause: err });
          await sleep(100);
        }
      }
    }
  }
}

module.exports = {
  cgroupHierarchies,
  createCgroupRoot,
  cgroupTree,
  podPids,
  containerProcess,
  removeCgroupRoot,
};
