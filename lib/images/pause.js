'use strict';
// The pods' sandbox image (containerd's sandbox_image): Kubernetes's own pause.c, from the source
// of the pinned release in the Go module cache, compiled statically. Registries' pause images are
// out of reach.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { runStep } = require('./command');
const { commitFrom } = require('./buildah');

/** build/pause/linux/pause.c of k8s.io/kubernetes at `version` (downloaded once). */
function pauseSource(version) {
  const r = spawnSync('go', ['mod', 'download', '-json', `k8s.io/kubernetes@${version}`], {
    encoding: 'utf8',
    cwd: os.tmpdir(),
    env: { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN || 'local', GOFLAGS: '-mod=mod' },
  });
  if (r.status !== 0)
    throw new Error(`the pause image: go mod download k8s.io/kubernetes failed: ${r.stderr}`);
  const file = path.join(JSON.parse(r.stdout).Dir, 'build', 'pause', 'linux', 'pause.c');
  if (!fs.existsSync(file)) throw new Error(`the pause image: ${file} is missing from the module`);
  return file;
}

const pauseKey = (kubernetesVersion) =>
  crypto.createHash('sha256').update(`${kubernetesVersion} static v1`).digest('hex').slice(0, 12);

/** Builds the pause image as `ref`, from Kubernetes `kubernetesVersion`'s source. */
function buildPause(ref, { log, kubernetesVersion }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-pause-'));
  try {
    const bin = path.join(tmp, 'pause');
    runStep(
      'gcc',
      [
        '-Os',
        '-static',
        '-Wall',
        `-DVERSION=${kubernetesVersion}`,
        '-o',
        bin,
        pauseSource(kubernetesVersion),
      ],
      {
        what: 'the pause image: gcc -static pause.c (needs gcc and libc6-dev)',
        log,
      },
    );
    commitFrom(ref, 'scratch', { what: 'pause', log }, (step, ctr) => {
      step(['copy', '--quiet', ctr, bin, '/pause'], 'pause');
      step(['config', '--entrypoint', '["/pause"]', ctr], 'its entrypoint');
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

module.exports = { buildPause, pauseKey };
