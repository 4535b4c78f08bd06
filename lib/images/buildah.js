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

/**
 * Image `ref`: a container from `from` (an image, or 'scratch'), changed by `change(step, ctr)`,
 * committed; a failed change removes the container. `what` names the image in errors.
 */
function commitFrom(ref, from, { what, log }, change) {
  const step = (args, doing) => buildah(args, { what: `the ${what} image: ${doing}`, log });
  const ctr = step(['from', '--quiet', '--pull=never', from], `a container from ${from}`);
  try {
    change(step, ctr);
    step(['commit', '--quiet', '--rm', ctr, ref], 'commit');
  } catch (err) {
    buildah(['rm', ctr], { what: 'removing the failed build', log });
    throw err;
  }
}

/** Image `ref` in the store, loaded from `archive` if it is not there (it came from elsewhere). */
function ensureInStore(ref, archive, { log }) {
  try {
    buildah(['inspect', '--type', 'image', ref], { what: `looking for ${ref}`, log: () => {} });
  } catch {
    log(`  loading ${ref} into the store from ${archive}`);
    buildah(['pull', '--quiet', `oci-archive:${archive}`], { what: `loading ${ref} from ${archive}`, log });
  }
}

module.exports = { buildah, commitFrom, saveArchive, ensureInStore, IMAGES_DIR };
