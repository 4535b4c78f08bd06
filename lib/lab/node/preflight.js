'use strict';
// What the node (LAB_PODS=yes) needs before anything starts: root, cgroups, and each tool with the
// package or setup step that provides it. Each problem is one line that says what to do.
const fs = require('node:fs');
const { findTool } = require('../../core/tools');
const { BUILT_TOOLS, cniDir } = require('../../setup/node-tools');
const { cgroupHierarchies } = require('./cgroups');

/** The system packages behind the node's tools (Debian's names), for the error message. */
const PACKAGES = {
  containerd: 'containerd',
  runc: 'runc',
  nft: 'nftables',
  conntrack: 'conntrack',
  mmdebstrap: 'mmdebstrap',
  buildah: 'buildah',
};

/** The problems that stop a lab with pods here (empty when it can run). */
function nodeProblems() {
  if (process.getuid?.() !== 0)
    return ['LAB_PODS=yes needs root: the node makes a bridge, cgroups and namespaces'];
  const problems = [];
  let hierarchies = [];
  try {
    hierarchies = cgroupHierarchies();
  } catch {
    // No /sys/fs/cgroup at all: said below.
  }
  if (!hierarchies.length)
    problems.push('LAB_PODS=yes needs cgroups (v1 or v2) mounted at /sys/fs/cgroup: none are');
  if (!fs.existsSync('/proc/self/ns/mnt'))
    problems.push('LAB_PODS=yes needs mount namespaces: this kernel has none');
  for (const name of Object.keys(PACKAGES).filter((n) => !findTool(n))) {
    problems.push(
      `${name} is not installed: apt-get install ${PACKAGES[name]} (or npm run setup -- --for test)`,
    );
  }
  if (!cniDir())
    problems.push('the CNI plugins are not installed: apt-get install containernetworking-plugins');
  // The images are not checked: lab:up builds what is missing, saying so.
  for (const tool of BUILT_TOOLS.filter((t) => !(t.locate()?.tooOld === false))) {
    problems.push(`${tool.name} is not built: run 'npm run setup -- --for test'`);
  }
  return problems;
}

module.exports = { nodeProblems };
