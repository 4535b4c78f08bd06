'use strict';
// The data service's image, from data-service/Containerfile itself (the Containerfile is what is
// tested) FROM the base. Its `npm ci` reaches the registry as this machine's npm does: the CA bundle
// and registry are mounted for the build only, never kept in the image.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { ROOT } = require('../core/paths');
const { runStep } = require('./command');
const { buildah } = require('./buildah');

const CONTEXT = path.join(ROOT, 'data-service');
const CONTAINERFILE = 'Containerfile';
/** The files the Containerfile reads: a change in any of them is a new image. */
const INPUTS = [CONTAINERFILE, 'package.json', 'package-lock.json', 'src'];
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** Every file under `rel` (a file or a directory of CONTEXT), sorted. */
function filesOf(rel) {
  const full = path.join(CONTEXT, rel);
  if (!fs.statSync(full).isDirectory()) return [rel];
  return fs
    .readdirSync(full)
    .sort()
    .flatMap((f) => filesOf(path.join(rel, f)));
}

/** The image's tag: its inputs' content and the base it builds FROM. */
function dataServiceKey(baseRef) {
  const hash = crypto.createHash('sha256').update(baseRef);
  for (const file of INPUTS.flatMap(filesOf))
    hash.update(file).update(fs.readFileSync(path.join(CONTEXT, file)));
  return hash.digest('hex').slice(0, 12);
}

/** The npm settings the build's `npm ci` needs from this machine: its registry and CA bundle. */
function buildNpmrc(dir) {
  const registry = runStep('npm', ['config', 'get', 'registry'], { what: 'npm config get registry' }).trim();
  const file = path.join(dir, 'npmrc');
  fs.writeFileSync(
    file,
    [`registry=${registry}`, ...(fs.existsSync(CA_BUNDLE) ? [`cafile=${CA_BUNDLE}`] : [])].join('\n'),
  );
  return file;
}

/** Builds data-service/Containerfile as `ref` FROM `baseRef`. */
function buildDataService(ref, { baseRef, log }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-ds-'));
  try {
    const mounts = [
      '--volume',
      `${buildNpmrc(tmp)}:/usr/local/etc/npmrc:ro`,
      ...(fs.existsSync(CA_BUNDLE) ? ['--volume', `${CA_BUNDLE}:${CA_BUNDLE}:ro`] : []),
    ];
    log(`  data-service/${CONTAINERFILE} FROM ${baseRef}`);
    buildah(
      [
        'bud',
        '--quiet',
        '--network',
        'host',
        ...mounts,
        '--build-arg',
        `NODE_IMAGE=${baseRef}`,
        '--file',
        CONTAINERFILE,
        '--tag',
        ref,
        '.',
      ],
      { what: `building data-service/${CONTAINERFILE}`, log, cwd: CONTEXT },
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

module.exports = { buildDataService, dataServiceKey };
