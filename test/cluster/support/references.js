'use strict';
// What a build refers to by name that is not in it: volumes, env sources, Route targets,
// selectors and the TestRun's scripts must name objects of the build or a known external Secret.
const names = require('../../../lib/cluster/names');
const { ofKind, named, podSpecs, selects } = require('./builds');

/** ConfigMaps, Secrets and PVCs the pods mount or read their environment from. */
function podReferences({ objects, has, external, need }) {
  for (const { owner, spec } of podSpecs(objects)) {
    for (const v of spec.volumes || []) {
      if (v.configMap) need(has('ConfigMap', v.configMap.name), `${owner}: ConfigMap ${v.configMap.name}`);
      if (v.secret) need(external.has(v.secret.secretName), `${owner}: Secret ${v.secret.secretName}`);
      const claim = v.persistentVolumeClaim && v.persistentVolumeClaim.claimName;
      if (claim) need(has('PersistentVolumeClaim', claim), `${owner}: PVC ${claim}`);
    }
    for (const c of spec.containers) {
      for (const f of c.envFrom || []) {
        if (f.configMapRef)
          need(has('ConfigMap', f.configMapRef.name), `${owner}: envFrom ConfigMap ${f.configMapRef.name}`);
        if (f.secretRef) need(external.has(f.secretRef.name), `${owner}: envFrom Secret ${f.secretRef.name}`);
      }
      for (const e of c.env || []) {
        const ref = e.valueFrom && e.valueFrom.secretKeyRef;
        if (ref) need(external.has(ref.name), `${owner}: env ${e.name} from Secret ${ref.name}`);
      }
    }
  }
}

/** Routes to Services and their ports; StatefulSets to their governing Service. */
function serviceReferences({ objects, need }) {
  for (const route of ofKind(objects, 'Route')) {
    const svc = named(objects, 'Service', route.spec.to.name);
    need(svc, `Route ${route.metadata.name}: Service ${route.spec.to.name}`);
    const port = route.spec.port.targetPort;
    if (svc)
      need(
        svc.spec.ports.some((p) => p.name === port),
        `Route ${route.metadata.name}: port ${port}`,
      );
  }
  for (const sts of ofKind(objects, 'StatefulSet')) {
    const svc = named(objects, 'Service', sts.spec.serviceName);
    need(svc, `StatefulSet ${sts.metadata.name}: serviceName ${sts.spec.serviceName}`);
  }
}

/** Services, disruption budgets, network policies and monitors must select something. */
function selectorReferences({ objects, need }) {
  const workloads = podSpecs(objects);
  const services = ofKind(objects, 'Service');
  const hasPort = (w, name) => w.spec.containers.some((c) => (c.ports || []).some((cp) => cp.name === name));
  for (const svc of services) {
    const pods = workloads.filter((w) => selects(svc.spec.selector, w.labels));
    need(pods.length > 0, `Service ${svc.metadata.name}: selects no pods`);
    for (const p of svc.spec.ports.filter((x) => typeof x.targetPort === 'string')) {
      need(
        pods.some((w) => hasPort(w, p.targetPort)),
        `Service ${svc.metadata.name}: targetPort ${p.targetPort} is no container port`,
      );
    }
  }
  for (const o of [...ofKind(objects, 'PodDisruptionBudget'), ...ofKind(objects, 'NetworkPolicy')]) {
    const sel =
      o.kind === 'PodDisruptionBudget' ? o.spec.selector.matchLabels : o.spec.podSelector.matchLabels;
    need(
      workloads.some((w) => selects(sel, w.labels)),
      `${o.kind} ${o.metadata.name}: selects no pods`,
    );
  }
  for (const sm of ofKind(objects, 'ServiceMonitor')) {
    const svc = services.find((s) => selects(sm.spec.selector.matchLabels, s.metadata.labels));
    need(svc, `ServiceMonitor ${sm.metadata.name}: selects no Service`);
    for (const ep of sm.spec.endpoints) {
      need(
        svc && svc.spec.ports.some((p) => p.name === ep.port),
        `ServiceMonitor ${sm.metadata.name}: port ${ep.port}`,
      );
    }
  }
}

/** Everything a build refers to by name must exist in it, or be created outside on purpose. */
function dangling(objects) {
  const servingCertSecrets = ofKind(objects, 'Service')
    .map((s) => (s.metadata.annotations || {})['service.beta.openshift.io/serving-cert-secret-name'])
    .filter(Boolean);
  const problems = [];
  const refs = {
    objects,
    has: (kind, name) => Boolean(named(objects, kind, name)),
    external: new Set([...servingCertSecrets, names.REDIS_SECRET]),
    need: (ok, what) => ok || problems.push(what),
  };
  podReferences(refs);
  serviceReferences(refs);
  selectorReferences(refs);
  for (const tr of ofKind(objects, 'TestRun')) {
    const scripts = tr.spec.runner.volumes.find((v) => v.name === 'scripts');
    refs.need(
      refs.has('ConfigMap', scripts.configMap.name),
      `TestRun: scripts ConfigMap ${scripts.configMap.name}`,
    );
  }
  return problems;
}

module.exports = { dangling };
