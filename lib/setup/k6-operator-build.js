'use strict';
// grafana/k6-operator, built from its pinned commit (GitHub or the mirror: ./mirror-source.js) into
// .tools/k6-operator/ with its CRDs: the lab with pods runs it as a process, so cluster:k6 runs
// its TestRun on the lab's node as on a cluster.
const fs = require('node:fs');
const path = require('node:path');
const { runGo, cachedGoBuild } = require('./go-install');
const { TOOLS_DIR } = require('../core/paths');
const { unpackSource } = require('./mirror-source');

// v1.4.0: the newest release whose k6 dependency (go.k6.io/k6 v1.7.0) the Go module proxy serves;
// v1.5 and later need go.k6.io/k6/v2, which it does not. The proxy refuses the operator's own module.
const K6_OPERATOR = {
  name: 'k6-operator',
  repo: 'grafana/k6-operator',
  version: 'v1.4.0',
  commit: 'eba3637e82f06800eac750ec81817d5660be1dfa',
};
const OPERATOR_DIR = path.join(TOOLS_DIR, 'k6-operator');
const operatorBin = path.join(OPERATOR_DIR, 'k6-operator');
const stampFile = path.join(OPERATOR_DIR, 'commit');
/** Both CRDs: the operator's manager watches PrivateLoadZones too and stops without their API. */
const CRD_FILES = ['k6.io_testruns.yaml', 'k6.io_privateloadzones.yaml'];
const crdFiles = () => CRD_FILES.map((f) => path.join(OPERATOR_DIR, 'crd', f));

async function buildK6Operator(log, { env = process.env } = {}) {
  const dir = await unpackSource(K6_OPERATOR, { env, log });
  log(`  building k6-operator ${K6_OPERATOR.version}: about a minute on 2 cores`);
  fs.mkdirSync(path.join(OPERATOR_DIR, 'crd'), { recursive: true });
  runGo(['build', '-trimpath', '-ldflags=-s -w', '-o', operatorBin, './cmd'], {
    what: `k6-operator ${K6_OPERATOR.version}`,
    cwd: dir,
    env: { CGO_ENABLED: '0' },
    log,
  });
  for (const f of CRD_FILES)
    fs.copyFileSync(path.join(dir, 'config', 'crd', 'bases', f), path.join(OPERATOR_DIR, 'crd', f));
  fs.writeFileSync(stampFile, `${K6_OPERATOR.commit}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The registry's entry: found when built from the pinned commit. */
function k6OperatorTool(neededFor) {
  return {
    name: `k6-operator ${K6_OPERATOR.version}`,
    neededFor,
    locate() {
      if (![operatorBin, stampFile, ...crdFiles()].every(fs.existsSync)) return null;
      const commit = fs.readFileSync(stampFile, 'utf8').trim();
      return {
        path: operatorBin,
        version: `${K6_OPERATOR.version} (${commit.slice(0, 12)})`,
        tooOld: commit !== K6_OPERATOR.commit,
        min: K6_OPERATOR.commit.slice(0, 12),
      };
    },
    // Its folder (binary, CRDs, commit) is the build's whole result.
    install: (log) =>
      cachedGoBuild(
        {
          what: `k6-operator ${K6_OPERATOR.version}`,
          key: { commit: K6_OPERATOR.commit },
          recipe: __filename,
          outputs: [OPERATOR_DIR],
          log,
        },
        () => buildK6Operator(log),
      ),
  };
}

module.exports = { K6_OPERATOR, k6OperatorTool, operatorBin, crdFiles };
