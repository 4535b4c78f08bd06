'use strict';
// kustomize build of the overlays, as text or as parsed objects, and composing an overlay with
// extra components (router tuning, in-cluster k6) in a temporary kustomization.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const yaml = require('../core/dependency').lazyDependency('js-yaml');
const { ROOT, OVERLAYS } = require('../core/paths');
const { requireTool } = require('../core/tools');

/** The components an overlay can be combined with (overlays/components/<name>). */
const COMPONENTS = ['router-tuning', 'k6-testrun'];

const overlayDir = (name) => path.join(ROOT, 'overlays', name);
const componentDir = (name) => path.join(ROOT, 'overlays', 'components', name);

/** `kustomize build <dir>` output; throws with kustomize's own message on failure. */
function build(dir) {
  try {
    return execFileSync(requireTool('kustomize'), ['build', dir], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    throw new Error(
      `kustomize build ${path.relative(ROOT, dir) || dir} failed: ${String(err.stderr || err.message).trim()}`,
      {
        cause: err,
      },
    );
  }
}

/** The objects of a build, in order. */
function buildObjects(dir) {
  return yaml.loadAll(build(dir)).filter(Boolean);
}

/**
 * A temporary kustomization: `overlay` plus `components`, optionally with a name prefix or suffix,
 * extra `patches` (Kustomize patch entries: { target, patch }) and `images` ({ name, newName, newTag }).
 * No namespace field: it would also move the IngressController out of openshift-ingress-operator;
 * `oc apply -n` chooses the project instead. Returns its directory and a cleanup function.
 */
function compose({ overlay, components = [], namePrefix, nameSuffix, patches = [], images = [] }) {
  if (!OVERLAYS.includes(overlay)) {
    throw new Error(`unknown overlay '${overlay}': choose one of ${OVERLAYS.join(', ')}`);
  }
  for (const c of components) {
    if (!COMPONENTS.includes(c))
      throw new Error(`unknown component '${c}': choose from ${COMPONENTS.join(', ')}`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-kustomize-'));
  const rel = (p) => path.relative(dir, p);
  const doc = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    ...(namePrefix ? { namePrefix } : {}),
    ...(nameSuffix ? { nameSuffix } : {}),
    resources: [rel(overlayDir(overlay))],
    ...(components.length ? { components: components.map((c) => rel(componentDir(c))) } : {}),
    ...(patches.length ? { patches } : {}),
    ...(images.length ? { images } : {}),
  };
  fs.writeFileSync(path.join(dir, 'kustomization.yaml'), yaml.dump(doc));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

module.exports = { OVERLAYS, COMPONENTS, overlayDir, componentDir, build, buildObjects, compose };
