'use strict';
// The kustomize builds the cluster tests look at: every overlay, the overlay with every component
// (and the results reader Pod cluster:k6 applies), and a fixture that renames all of it.
const path = require('node:path');
const { OVERLAYS, COMPONENTS, overlayDir, buildObjects, compose } = require('../../../lib/cluster/kustomize');
const { readerPod } = require('../../../lib/cluster/k6-testrun');

const PREFIXED_FIXTURE = path.join(__dirname, '..', 'fixtures', 'everything');

/** { name: objects[] } for every overlay, 'all+components' and 'prefixed'. */
function allBuilds() {
  const builds = {};
  for (const o of OVERLAYS) builds[o] = buildObjects(overlayDir(o));
  const composed = compose({ overlay: 'all', components: COMPONENTS });
  try {
    const objects = buildObjects(composed.dir);
    const testRun = objects.find((o) => o.kind === 'TestRun');
    builds['all+components'] = [...objects, readerPod(testRun.spec.runner.image)];
  } finally {
    composed.cleanup();
  }
  builds.prefixed = buildObjects(PREFIXED_FIXTURE);
  return builds;
}

const ofKind = (objects, kind) => objects.filter((o) => o.kind === kind);
const named = (objects, kind, name) => objects.find((o) => o.kind === kind && o.metadata.name === name);

/** Every pod spec in a build, with where it came from: Pods, workloads and TestRun runners. */
function podSpecs(objects) {
  const specs = [];
  for (const o of objects) {
    if (o.kind === 'Pod')
      specs.push({ owner: `Pod/${o.metadata.name}`, labels: o.metadata.labels, spec: o.spec });
    if (['Deployment', 'StatefulSet', 'Job'].includes(o.kind)) {
      specs.push({
        owner: `${o.kind}/${o.metadata.name}`,
        labels: o.spec.template.metadata.labels,
        spec: o.spec.template.spec,
      });
    }
    if (o.kind === 'TestRun') {
      const r = o.spec.runner;
      // The operator builds the pod from these fields: one container with containerSecurityContext.
      specs.push({
        owner: `TestRun/${o.metadata.name}`,
        labels: (r.metadata && r.metadata.labels) || {},
        spec: {
          securityContext: r.securityContext,
          containers: [
            { name: 'k6', securityContext: r.containerSecurityContext, env: r.env, envFrom: r.envFrom },
          ],
          volumes: r.volumes,
        },
      });
    }
  }
  return specs;
}

/** True when every key=value of matchLabels is in labels. */
const selects = (matchLabels, labels) =>
  Object.entries(matchLabels || {}).every(([k, v]) => labels && labels[k] === v);

module.exports = { allBuilds, ofKind, named, podSpecs, selects, PREFIXED_FIXTURE };
