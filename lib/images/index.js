'use strict';
// The lab's images (LAB_PODS=yes), built here and never pulled: each is an OCI archive under
// .tools/images named by its content, so a second lab:up builds nothing. `images:` maps the
// manifests' public names to them (docs/pods.md), so what users apply on OpenShift is unchanged.
const fs = require('node:fs');
const path = require('node:path');
const { saveArchive, ensureInStore, IMAGES_DIR } = require('./buildah');
const { buildBase, baseKey } = require('./base');
const { buildPause, pauseKey } = require('./pause');
const { buildDataService, dataServiceKey } = require('./data-service');
const { buildK6Runner, buildK6Starter, k6RunnerKey, k6StarterKey } = require('./k6');

const REPOSITORY = 'localhost/router-lab';

/**
 * Each image: its name, the public names it stands in for in the manifests, its tag (a function
 * of the tags before it), the image it builds FROM (`from`, when one of these) and its build. In
 * build order.
 */
const IMAGES = [
  {
    name: 'pause',
    replaces: [],
    key: (refs, ctx) => pauseKey(ctx.kubernetesVersion),
    build: (ref, ctx) => buildPause(ref, ctx),
  },
  // Redis's pods run Debian's redis-server from the base (the manifests name the Docker library's).
  {
    name: 'base',
    replaces: ['docker.io/library/redis'],
    key: baseKey,
    build: (ref, ctx) => buildBase(ref, ctx),
  },
  {
    name: 'data-service',
    from: 'base',
    replaces: ['data-service'],
    key: (refs) => dataServiceKey(refs.base),
    build: (ref, ctx) => buildDataService(ref, { ...ctx, baseRef: ctx.refs.base }),
  },
  // k6-operator's Jobs (cluster:k6): the TestRun's runner and starter images.
  {
    name: 'k6-runner',
    from: 'base',
    replaces: ['docker.io/grafana/k6'],
    key: (refs) => k6RunnerKey(refs.base),
    build: (ref, ctx) => buildK6Runner(ref, { ...ctx, baseRef: ctx.refs.base }),
  },
  {
    name: 'k6-starter',
    from: 'base',
    replaces: ['ghcr.io/grafana/k6-operator'],
    key: (refs) => k6StarterKey(refs.base),
    build: (ref, ctx) => buildK6Starter(ref, { ...ctx, baseRef: ctx.refs.base }),
  },
];

/**
 * Every image's reference and archive, from the current inputs: [{ name, ref, archive, replaces,
 * built }]. `kubernetesVersion`: the release whose pause.c the sandbox image runs (the node's).
 */
function plannedImages({ kubernetesVersion }) {
  const refs = {};
  return IMAGES.map((image) => {
    const ref = `${REPOSITORY}/${image.name}:${image.key(refs, { kubernetesVersion })}`;
    refs[image.name] = ref;
    const archive = path.join(IMAGES_DIR, `${image.name}-${ref.split(':').at(-1)}.tar`);
    return { ...image, ref, archive, built: fs.existsSync(archive) };
  });
}

/** Without a cache: every missing archive is built. */
const buildAlways = (image, build) => build();

/**
 * Makes every image whose archive is missing; resolves plannedImages(). `cached(image, build)`
 * may bring the archive from elsewhere instead of calling build() (setup's tool cache); an image
 * built FROM another that came that way finds it loaded into the store. `log` gets progress.
 */
async function ensureImages({ kubernetesVersion, log = () => {}, cached = buildAlways }) {
  const planned = plannedImages({ kubernetesVersion });
  const byName = Object.fromEntries(planned.map((p) => [p.name, p]));
  const refs = Object.fromEntries(planned.map((p) => [p.name, p.ref]));
  for (const image of planned.filter((p) => !p.built)) {
    await cached(image, () => {
      log(`  building image ${image.ref}`);
      const started = Date.now();
      const from = byName[image.from];
      if (from) ensureInStore(from.ref, from.archive, { log });
      image.build(image.ref, { log, refs, kubernetesVersion });
      saveArchive(image.ref, image.archive, { log });
      log(`  ${image.ref}: built in ${Math.round((Date.now() - started) / 1000)} s, ${image.archive}`);
    });
  }
  return plannedImages({ kubernetesVersion });
}

/** kustomize's `images:` entries: the manifests' public names → the lab's images. */
function kustomizeImages(planned) {
  return planned.flatMap((p) =>
    p.replaces.map((name) => ({ name, newName: p.ref.split(':')[0], newTag: p.ref.split(':').at(-1) })),
  );
}

module.exports = { ensureImages, plannedImages, kustomizeImages, IMAGES, REPOSITORY };
