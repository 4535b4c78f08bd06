'use strict';
// buildah with the lab's own image store under .tools/images: nothing of the machine's
// (/var/lib/containers) is read or written. Every image leaves as an OCI archive, which the
// node's containerd imports.
const fs = require('node:fs');
const path = require('node:path');
const { TOOLS_DIR } = require('../core/paths');
const { runStep } = require('./command');

const IMAGES_DIR = path.join(TOOLS_DIR, 'images');
const STORE = { root: path.join(IMAGES_DIR, 'store'), runroot: path.join(IMAGES_DIR, 'run') };

/** `buildah ARGS` against the lab's store; resolves its stdout, trimmed. */
function buildah(args, { what, log, cwd }) {
  fs.mkdirSync(STORE.root, { recursive: true });
  const store = ['--root', STORE.root, '--runroot', STORE.runroot, '--storage-driver', 'overlay'];
  return runStep('buildah', [...store, ...args], { what, log, cwd, shown: false }).trim();
}

/** Writes image `ref` to `archive` (an OCI archive that keeps the name), atomically. */
function saveArchive(ref, archive, { log }) {
  const partial = `${archive}.partial`;
  fs.rmSync(partial, { force: true });
  buildah(['push', '--quiet', ref, `oci-archive:${partial}:${ref}`], { what: `saving ${ref}`, log });
  fs.renameSync(partial, archive);
}

module.exports = { buildah, saveArchive, IMAGES_DIR };
