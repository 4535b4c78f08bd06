'use strict';
// What a lab with pods (LAB_PODS=yes) needs beside the control plane (setup --for test): a container
// runtime, its network plugins and the image tools from the system's packages; the node's
// Kubernetes commands at kube-apiserver's version, CoreDNS and k6-operator, built here.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { toolVersion } = require('../core/tools');
const { TOOLS_BIN } = require('../core/paths');
const { systemTool } = require('./system-tool');
const { goInstall } = require('./go-install');
const { plannedImages, ensureImages } = require('../images');
const { cachedBuild } = require('./tool-cache');
const { installSystemPackages } = require('./system-packages');
const { KUBE_APISERVER_VERSION, NODE_COMMANDS, kubernetesCommandTool } = require('./kubernetes-build');
const { k6OperatorTool } = require('./k6-operator-build');

/** The level that installs them: npm test boots the node (test/node/). */
const LEVEL = 'test';

/** Where Debian and Fedora install the CNI plugins (not on PATH). */
const CNI_DIRS = ['/usr/lib/cni', '/usr/libexec/cni', '/opt/cni/bin'];
/** The plugins the node's network uses: a bridge, addresses from a range, the pods' loopback. */
const CNI_PLUGINS = ['bridge', 'host-local', 'loopback', 'portmap'];

/** The directory holding every plugin the node uses, or null. */
function cniDir() {
  return CNI_DIRS.find((dir) => CNI_PLUGINS.every((p) => fs.existsSync(path.join(dir, p)))) ?? null;
}

/** The plugins report no version of their own; the package does. */
function cniVersion() {
  const out = spawnSync('dpkg-query', ['-W', '-f=${Version}', 'containernetworking-plugins'], {
    encoding: 'utf8',
  });
  return (out.stdout?.match(/^(\d+\.\d+\.\d+)/) || [])[1] ?? 'unknown version';
}

const cniPlugins = {
  name: 'CNI plugins',
  neededFor: LEVEL,
  locate() {
    const dir = cniDir();
    return dir ? { path: dir, version: cniVersion(), tooOld: false } : null;
  },
  install: (log) =>
    installSystemPackages(
      'the CNI plugins',
      { apt: ['containernetworking-plugins'], dnf: ['containernetworking-plugins'] },
      log,
    ),
};

const runtimeTools = [
  systemTool({
    name: 'containerd',
    bins: ['containerd', 'ctr'],
    versionArgs: ['--version'],
    versionPattern: /containerd \S+ v?(\d+\.\d+\.\d+)/,
    // Debian 12's: its CRI plugin takes restrict_oom_score_adj, which this machine's pods need.
    min: '1.6.20',
    packages: { apt: ['containerd'], dnf: ['containerd'] },
  }),
  systemTool({
    name: 'runc',
    versionArgs: ['--version'],
    versionPattern: /runc version (\d+\.\d+\.\d+)/,
    min: '1.1.5',
    packages: { apt: ['runc'], dnf: ['runc'] },
  }),
  cniPlugins,
  // kube-proxy's rules (nftables mode: a table of its own, removed at lab:down) and its conntrack.
  systemTool({
    name: 'nft',
    versionArgs: ['--version'],
    versionPattern: /nftables v(\d+\.\d+\.\d+)/,
    min: '1.0.6',
    packages: { apt: ['nftables'], dnf: ['nftables'] },
  }),
  systemTool({
    name: 'conntrack',
    versionArgs: ['--version'],
    versionPattern: /conntrack v(\d+\.\d+\.\d+)/,
    min: '1.4.7',
    packages: { apt: ['conntrack'], dnf: ['conntrack-tools'] },
  }),
  // The base image, from the system's own package sources.
  systemTool({
    name: 'mmdebstrap',
    versionArgs: ['--version'],
    versionPattern: /mmdebstrap (\d+\.\d+\.\d+)/,
    min: '1.3.5',
    packages: { apt: ['mmdebstrap'] },
  }),
  // The images built from the repository's Containerfiles.
  systemTool({
    name: 'buildah',
    versionArgs: ['--version'],
    versionPattern: /buildah version (\d+\.\d+\.\d+)/,
    min: '1.28.2',
    packages: { apt: ['buildah'], dnf: ['buildah'] },
  }),
].map((tool) => ({ ...tool, neededFor: LEVEL }));

/** The cluster's DNS (Services and StatefulSet pods by name), as a cluster runs it. */
const COREDNS = { module: 'github.com/coredns/coredns', version: 'v1.14.7' };

const coredns = {
  name: 'coredns',
  neededFor: LEVEL,
  locate() {
    const file = path.join(TOOLS_BIN, 'coredns');
    if (!fs.existsSync(file)) return null;
    const version = ((toolVersion(file, ['-version']) || '').match(/CoreDNS-(\d+\.\d+\.\d+)/) || [])[1];
    return {
      path: file,
      version: version ?? 'unknown version',
      tooOld: `v${version}` !== COREDNS.version,
      min: COREDNS.version,
    };
  },
  install: (log) => goInstall(COREDNS.module, COREDNS.version, log),
};

/** The pods' images, built here from the repository and the system's packages (lib/images). */
const images = {
  name: 'pod images',
  neededFor: LEVEL,
  locate() {
    const planned = plannedImages({ kubernetesVersion: KUBE_APISERVER_VERSION });
    if (!planned.every((p) => p.built)) return null;
    return { path: path.dirname(planned[0].archive), version: `${planned.length} images`, tooOld: false };
  },
  // An archive's name is its content's key: the tool cache keeps each by that name.
  install: (log) =>
    ensureImages({
      kubernetesVersion: KUBE_APISERVER_VERSION,
      log,
      cached: (image, build) =>
        cachedBuild(
          {
            what: image.ref,
            key: { archive: path.basename(image.archive) },
            recipe: __filename,
            outputs: [image.archive],
            log,
          },
          build,
        ),
    }),
};

/** The node's commands built from the Go module proxy (k6-operator: from its pinned commit). */
const BUILT_TOOLS = [
  ...NODE_COMMANDS.map((command) => kubernetesCommandTool(command, LEVEL)),
  coredns,
  k6OperatorTool(LEVEL),
];
const NODE_TOOLS = [...runtimeTools, ...BUILT_TOOLS, images];

module.exports = { NODE_TOOLS, BUILT_TOOLS, cniDir };
