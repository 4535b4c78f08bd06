'use strict';
// LAB_ROUTES=N: besides the four data-service Routes, N - 4 more Routes spread evenly over the
// terminations, each with a Service of its own (its own HAProxy backend), all on the same
// data-service instances. Their manifests have the shape of overlays/components/route-* (pure).
const fs = require('node:fs');
const path = require('node:path');
const yaml = require('../../core/dependency').lazyDependency('js-yaml');
const { ROOT } = require('../../core/paths');
const cells = require('../../../k6/lib/cells');
const { routeManifestPath, routeSettings, NAMESPACE, APPS_DOMAIN, BACKEND_PREFIX } = require('./routes');

/** Past this many Routes per router OpenShift no longer supports it (it still works). */
const SUPPORTED_MAX_ROUTES = 1000;
const SCALE_LABEL = 'router-lab.io/scale';

/**
 * The extra Routes for `total` Routes in all, `terminations` in turn (a router's own list, else all
 * four): [{ name, termination, host, backend, …what its termination's manifest asks of the router
 * (routes.js routeSettings) }].
 */
function scaleRoutes(total, terminations = cells.TERMINATIONS) {
  const counts = Object.fromEntries(terminations.map((t) => [t, 0]));
  const count = Math.max(0, total - cells.TERMINATIONS.length);
  const settings = count ? Object.fromEntries(terminations.map((t) => [t, routeSettings(t)])) : {};
  return Array.from({ length: count }, (_, i) => {
    const termination = terminations[i % terminations.length];
    const name = `scale-${termination}-${++counts[termination]}`;
    return {
      name,
      termination,
      host: `${name}-${NAMESPACE}.${APPS_DOMAIN}`,
      backend: `${BACKEND_PREFIX[termination]}:${NAMESPACE}:${name}`,
      ...settings[termination],
    };
  });
}

/** The in-cluster host a scale Route's Service has: re-encrypt verifies it (service CA). */
const serviceHost = (route) => `${route.name}.${NAMESPACE}.svc`;

/** A scale Route's Route and Service manifests, from its termination's Route and the base Service. */
function scaleManifests(route, { base = readBase() } = {}) {
  const r = structuredClone(base.routes[route.termination]);
  r.metadata.name = route.name;
  r.metadata.labels = { ...r.metadata.labels, [SCALE_LABEL]: 'true' };
  r.spec.to = { ...r.spec.to, name: route.name };
  const s = structuredClone(base.service);
  s.metadata.name = route.name;
  s.metadata.labels = { ...s.metadata.labels, [SCALE_LABEL]: 'true' };
  delete s.metadata.annotations;
  return [r, s];
}

/** The four Route manifests and the base Service, read once per call site. */
function readBase() {
  const load = (file) => yaml.load(fs.readFileSync(file, 'utf8'));
  return {
    routes: Object.fromEntries(cells.TERMINATIONS.map((t) => [t, load(routeManifestPath(t))])),
    service: load(path.join(ROOT, 'manifests', 'service.yaml')),
  };
}

module.exports = { SUPPORTED_MAX_ROUTES, SCALE_LABEL, scaleRoutes, scaleManifests, serviceHost, readBase };
