'use strict';
// Builds the pinned Kubernetes commands from the Go module proxy into .tools/bin: kube-apiserver
// (the manifest test's API server and the openshift lab's) and kubectl (the lab's
// `kubectl apply -k overlays/<name>`), one version for both.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { findOnPath, toolVersion } = require('../core/tools');
const { TOOLS_BIN } = require('../core/paths');
const { runGo, cachedGoBuild } = require('./go-install');

// v1.33: the Kubernetes version of the schemas kubeconform uses (kubernetes-validate 1.33), and
// new enough for the CEL libraries the OpenShift CRDs use (isIP, format.dns1123Subdomain: 1.31+),
// which 1.30 rejects. It runs on the distributions' etcd 3.4.2x: kube-apiserver talks the etcd v3
// API that 3.4 serves, and turns off by itself what needs newer etcd (watch progress requests for
// consistent reads from cache). The test proves it on every run.
const KUBE_APISERVER_VERSION = 'v1.33.13';
/** The commands of k8s.io/kubernetes the lab builds. */
const KUBERNETES_COMMANDS = ['kube-apiserver', 'kubectl'];
/** The node's and its controllers' (LAB_PODS=yes), from the same release. */
const NODE_COMMANDS = ['kubelet', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy'];

/** v1.30.14 → v0.30.14: the tag the staging modules are published under. */
const stagingVersion = (version) => version.replace(/^v1\./, 'v0.');

/** The staging modules k8s.io/kubernetes replaces with ./staging/src/… directories. */
function stagingModules(goModText) {
  const mods = new Set();
  for (const m of goModText.matchAll(/^\s*(k8s\.io\/[\w.-]+)\s+=>\s+\.\/staging\//gm)) mods.add(m[1]);
  return [...mods].sort();
}

/** The go.mod of the throwaway module. */
function buildModule(version, staging, command = 'kube-apiserver') {
  const sv = stagingVersion(version);
  return [
    `module router-lab/${command}-build`,
    '',
    'go 1.22.0',
    '',
    `require k8s.io/kubernetes ${version}`,
    '',
    ...staging.map((m) => `replace ${m} => ${m} ${sv}`),
    '',
  ].join('\n');
}

/** What `--version` reports, as in an official build. */
const versionLdflags = (version) =>
  `-ldflags=-s -w -X k8s.io/component-base/version.gitVersion=${version} -X k8s.io/client-go/pkg/version.gitVersion=${version}`;

/** buildKubernetesCommand, or its result from the tool cache when built from the same inputs. */
function installKubernetesCommand(command, log, version = KUBE_APISERVER_VERSION) {
  const key = {
    module: 'k8s.io/kubernetes',
    command,
    version,
    ldflags: versionLdflags(version),
  };
  const outputs = [path.join(TOOLS_BIN, command)];
  return cachedGoBuild({ what: `${command} ${version}`, key, recipe: __filename, outputs, log }, () =>
    buildKubernetesCommand(command, log, version),
  );
}

/**
 * `go install k8s.io/kubernetes/cmd/kube-apiserver@vX` refuses to work because k8s.io/kubernetes's
 * go.mod replaces its staging modules (k8s.io/api, k8s.io/apiserver, …) with local directories. A
 * throwaway module that requires k8s.io/kubernetes and replaces each staging module with its
 * published v0.Y.Z twin builds the same binary. `command`: one of KUBERNETES_COMMANDS.
 */
function buildKubernetesCommand(command, log, version = KUBE_APISERVER_VERSION) {
  const go = (args, { cwd }) => runGo(args, { what: `${command} ${version}`, cwd, log });
  const goBin = findOnPath('go');
  if (!goBin)
    throw new Error(
      `${command} is built with Go from the module proxy: install Go 1.22+, then 'npm run setup'`,
    );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `router-lab-${command}-`));
  try {
    const info = spawnSync(goBin, ['mod', 'download', '-json', `k8s.io/kubernetes@${version}`], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN || 'local' },
    });
    if (info.status !== 0)
      throw new Error(`go mod download k8s.io/kubernetes@${version} failed: ${info.stderr.trim()}`);
    const { GoMod } = JSON.parse(info.stdout);
    const staging = stagingModules(fs.readFileSync(GoMod, 'utf8'));
    if (!staging.length)
      throw new Error(`k8s.io/kubernetes@${version}: no staging replacements found in its go.mod`);
    fs.writeFileSync(path.join(dir, 'go.mod'), buildModule(version, staging, command));
    // A blank import so `go mod tidy` keeps exactly what the command needs.
    fs.writeFileSync(
      path.join(dir, 'tools.go'),
      `//go:build tools\n\npackage tools\n\nimport _ "k8s.io/kubernetes/cmd/${command}"\n`,
    );
    go(['mod', 'tidy'], { cwd: dir });
    fs.mkdirSync(TOOLS_BIN, { recursive: true });
    const out = path.join(TOOLS_BIN, command);
    log(`  building ${command} ${version} (10-30 minutes the first time on 2 cores; cached after)`);
    go(['build', '-trimpath', versionLdflags(version), '-o', out, `k8s.io/kubernetes/cmd/${command}`], {
      cwd: dir,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Setup's entry for one of the commands built here, needed from `neededFor`: only the pinned build
 * in .tools/bin counts (the tests rely on this exact version's behaviour).
 */
function kubernetesCommandTool(command, neededFor) {
  return {
    name: command,
    neededFor,
    locate() {
      const file = path.join(TOOLS_BIN, command);
      if (!fs.existsSync(file)) return null;
      const args = command === 'kubectl' ? ['version', '--client'] : ['--version'];
      const version = ((toolVersion(file, args) || '').match(/v(\d+\.\d+\.\d+)/) || [])[1];
      return {
        path: file,
        version: version ? `v${version}` : 'unknown version',
        tooOld: `v${version}` !== KUBE_APISERVER_VERSION,
        min: KUBE_APISERVER_VERSION,
      };
    },
    install: (log) => installKubernetesCommand(command, log),
  };
}

module.exports = {
  KUBE_APISERVER_VERSION,
  kubernetesCommandTool,
  KUBERNETES_COMMANDS,
  NODE_COMMANDS,
  stagingModules,
  buildModule,
  buildKubernetesCommand,
};
