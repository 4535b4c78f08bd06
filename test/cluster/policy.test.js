'use strict';
// Rules the manifests must keep, checked on the kustomize build output of every overlay: the
// restricted-v2 security settings, each termination's Route, names that resolve, replicas and
// the Redis topology, the NetworkPolicies, and no committed secret.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');
const names = require('../../lib/cluster/names');
const { allBuilds, ofKind, named, podSpecs, selects } = require('./support/builds');
const { dangling } = require('./support/references');

let builds;
beforeAll(() => {
  builds = allBuilds();
}, 120000);

const buildNames = () => Object.keys(builds);
const each = (fn) => {
  for (const [name, objects] of Object.entries(builds)) fn(objects, name);
};

describe('security: every container runs under restricted-v2', () => {
  test('pod and container security contexts', () => {
    const problems = [];
    each((objects, build) => {
      for (const { owner, spec } of podSpecs(objects)) {
        const where = `${build}: ${owner}`;
        const pod = spec.securityContext || {};
        if (pod.runAsNonRoot !== true) problems.push(`${where}: pod runAsNonRoot is not true`);
        for (const field of ['runAsUser', 'runAsGroup', 'fsGroup']) {
          if (field in pod) problems.push(`${where}: pod sets ${field} (restricted-v2 assigns it)`);
        }
        if (spec.hostNetwork || spec.hostPID || spec.hostIPC)
          problems.push(`${where}: uses a host namespace`);
        for (const v of spec.volumes || [])
          if (v.hostPath) problems.push(`${where}: hostPath volume ${v.name}`);
        for (const c of [...(spec.initContainers || []), ...spec.containers]) {
          const sc = c.securityContext || {};
          const cw = `${where} container ${c.name}`;
          if (sc.allowPrivilegeEscalation !== false)
            problems.push(`${cw}: allowPrivilegeEscalation is not false`);
          if (!(sc.capabilities && (sc.capabilities.drop || []).includes('ALL')))
            problems.push(`${cw}: does not drop ALL`);
          if (sc.capabilities && sc.capabilities.add) problems.push(`${cw}: adds capabilities`);
          if (sc.privileged) problems.push(`${cw}: privileged`);
          if (sc.runAsNonRoot !== true && pod.runAsNonRoot !== true)
            problems.push(`${cw}: runAsNonRoot not set`);
          const seccomp = (sc.seccompProfile || pod.seccompProfile || {}).type;
          if (seccomp !== 'RuntimeDefault') problems.push(`${cw}: seccomp is ${seccomp}, not RuntimeDefault`);
          if ('runAsUser' in sc || 'runAsGroup' in sc) problems.push(`${cw}: sets runAsUser/runAsGroup`);
          // Possible everywhere here: every writable path is a volume (data, /tmp, /run/redis).
          if (sc.readOnlyRootFilesystem !== true) problems.push(`${cw}: root filesystem is writable`);
        }
      }
    });
    expect(problems).toEqual([]);
    expect(podSpecs(builds['all+components']).length).toBeGreaterThanOrEqual(4);
  });

  test('the Redis password is never in the manifests: no Secret objects, no literal password', () => {
    each((objects, build) => {
      expect({ build, secrets: ofKind(objects, 'Secret').map((s) => s.metadata.name) }).toEqual({
        build,
        secrets: [],
      });
      for (const { owner, spec } of podSpecs(objects)) {
        for (const c of spec.containers) {
          for (const e of c.env || []) {
            if (/PASSWORD|AUTH/.test(e.name)) {
              expect({ owner, env: e.name, literal: 'value' in e }).toEqual({
                owner,
                env: e.name,
                literal: false,
              });
              expect(e.valueFrom.secretKeyRef).toMatchObject({ key: names.REDIS_SECRET_KEY });
            }
          }
        }
      }
      for (const cm of ofKind(objects, 'ConfigMap')) {
        for (const [key, value] of Object.entries(cm.data || {})) {
          expect({ key, hasPassword: /^\s*requirepass\s+[^\s%]/m.test(value) }).toEqual({
            key,
            hasPassword: false,
          });
        }
      }
    });
  });
});

describe('routes: one per termination, with the benchmark annotations', () => {
  const expected = {
    http: { tls: undefined, port: 'http' },
    edge: { tls: 'edge', port: 'http' },
    passthrough: { tls: 'passthrough', port: 'https' },
    reencrypt: { tls: 'reencrypt', port: 'https' },
  };

  test.each(names.TERMINATIONS)('overlays/%s has exactly its Route, right termination and port', (t) => {
    const routes = ofKind(builds[t], 'Route');
    expect(routes.map((r) => r.metadata.name)).toEqual([names.routeName(t)]);
    const [route] = routes;
    expect(route.spec.tls && route.spec.tls.termination).toBe(expected[t].tls);
    expect(route.spec.port.targetPort).toBe(expected[t].port);
    expect(route.spec.to).toMatchObject({ kind: 'Service', name: names.APP });
    expect(route.spec.host).toBeUndefined(); // OpenShift's <route>-<namespace>.<apps domain>
  });

  test('overlays/all and overlays/sandbox carry all four Routes', () => {
    for (const b of ['all', 'sandbox', 'all+components']) {
      expect(
        ofKind(builds[b], 'Route')
          .map((r) => r.metadata.name)
          .sort(),
      ).toEqual(names.TERMINATIONS.map(names.routeName).sort());
    }
  });

  test('annotations: timeout everywhere, no cookies where the router sees HTTP, random on passthrough', () => {
    for (const route of ofKind(builds.all, 'Route')) {
      const a = route.metadata.annotations;
      expect(a['haproxy.router.openshift.io/timeout']).toMatch(/^\d+(us|ms|s|m|h|d)?$/);
      if (route.spec.tls && route.spec.tls.termination === 'passthrough') {
        expect(a['haproxy.router.openshift.io/balance']).toBe('random');
      } else {
        expect(a['haproxy.router.openshift.io/disable_cookies']).toBe('true');
      }
    }
    // The why of "random" lives next to it, for the reader of the manifest.
    const text = fs.readFileSync(path.join(ROOT, 'overlays/components/route-passthrough/route.yaml'), 'utf8');
    expect(text).toMatch(/"source" by default/);
    expect(text).toMatch(/load generator/);
  });

  test('edge redirects http; re-encrypt trusts the service CA (no destinationCACertificate)', () => {
    const edge = named(builds.all, 'Route', names.routeName('edge'));
    expect(edge.spec.tls.insecureEdgeTerminationPolicy).toBe('Redirect');
    for (const route of ofKind(builds.all, 'Route')) {
      const tls = route.spec.tls || {};
      expect(tls.destinationCACertificate).toBeUndefined();
      // The router's default certificate: no key material in the repository.
      expect(tls.key).toBeUndefined();
      expect(tls.certificate).toBeUndefined();
    }
  });
});

describe('names resolve', () => {
  test('in every build, every reference points at an object of the build (or a documented external Secret)', () => {
    for (const b of buildNames())
      expect({ build: b, dangling: dangling(builds[b]) }).toEqual({ build: b, dangling: [] });
  });

  test('with namePrefix and nameSuffix, references follow the renamed objects (nameReference config)', () => {
    const objects = builds.prefixed;
    const renamed = (name) => /^lab-.*-x(-[a-z0-9]{10})?$/.test(name);
    for (const o of objects) {
      expect({ kind: o.kind, name: o.metadata.name, renamed: renamed(o.metadata.name) }).toMatchObject({
        renamed: true,
      });
    }
    for (const route of ofKind(objects, 'Route')) expect(route.spec.to.name).toBe('lab-data-service-x');
    const [tr] = ofKind(objects, 'TestRun');
    const volumes = Object.fromEntries(tr.spec.runner.volumes.map((v) => [v.name, v]));
    expect(volumes.scripts.configMap.name).toMatch(/^lab-k6-scripts-x-/);
    expect(volumes.results.persistentVolumeClaim.claimName).toBe('lab-k6-results-x');
    expect(volumes['trusted-ca'].configMap.name).toBe('lab-k6-trusted-ca-x');
    expect(dangling(objects)).toEqual([]);
  });

  test('Redis DNS names in the service and Job settings match the StatefulSet and its Service', () => {
    for (const b of ['all', 'http', 'all+components']) {
      const sts = named(builds[b], 'StatefulSet', 'redis-cluster');
      const hosts = Array.from(
        { length: sts.spec.replicas },
        (_, i) => `${sts.metadata.name}-${i}.${sts.spec.serviceName}`,
      );
      const connection = ofKind(builds[b], 'ConfigMap').find((c) => c.data && c.data.REDIS_CLUSTER_NODES);
      expect(connection.data.REDIS_CLUSTER_NODES.split(',')).toEqual(hosts.map((h) => `${h}:6379`));
      const job = named(builds[b], 'Job', names.REDIS_CLUSTER_JOB);
      const env = Object.fromEntries(job.spec.template.spec.containers[0].env.map((e) => [e.name, e.value]));
      expect(env.REDIS_NODES.split(/\s+/)).toEqual(hosts);
      expect(named(builds[b], 'Service', sts.spec.serviceName).spec.clusterIP).toBe('None');
    }
    const standalone = ofKind(builds.sandbox, 'ConfigMap').find((c) => c.data && c.data.REDIS_URL);
    const host = new URL(standalone.data.REDIS_URL).hostname;
    expect(named(builds.sandbox, 'Service', host)).toBeDefined();
  });
});

describe('replicas and topology', () => {
  const configOf = (objects) =>
    ofKind(objects, 'ConfigMap').find((c) => c.metadata.name.startsWith('data-service-config'));

  test('the data service: 6 pods like the bank (2 on the sandbox), 0.3 core, probes, drain covered', () => {
    for (const b of [...names.TERMINATIONS, 'all', 'sandbox']) {
      const d = named(builds[b], 'Deployment', names.APP);
      expect(d.spec.replicas).toBe(b === 'sandbox' ? 2 : 6);
      const pod = d.spec.template.spec;
      const [c] = pod.containers;
      expect(c.resources.requests.cpu).toBe('300m');
      expect(c.readinessProbe.httpGet.path).toBe('/readyz');
      expect(c.livenessProbe.httpGet.path).toBe('/healthz');
      expect(c.ports.map((p) => [p.name, p.containerPort])).toEqual([
        ['http', 8080],
        ['https', 8443],
      ]);
      const cfg = configOf(builds[b]).data;
      const drainSeconds = (Number(cfg.DRAIN_DELAY_MS) + Number(cfg.SHUTDOWN_TIMEOUT_MS)) / 1000;
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(drainSeconds);
      // A draining pod must fail readiness (and leave the endpoints) well before it stops serving.
      const notReadyAfterMs = c.readinessProbe.periodSeconds * c.readinessProbe.failureThreshold * 1000;
      expect(notReadyAfterMs * 2).toBeLessThanOrEqual(Number(cfg.DRAIN_DELAY_MS));
      expect(pod.topologySpreadConstraints.map((t) => t.topologyKey)).toContain('kubernetes.io/hostname');
      expect(
        cfg.TLS_CERT_FILE.startsWith(c.volumeMounts.find((m) => m.name === 'serving-cert').mountPath),
      ).toBe(true);
      const svc = named(builds[b], 'Service', names.APP);
      expect(svc.spec.ports.map((p) => [p.name, p.port])).toEqual([
        ['http', 8080],
        ['https', 8443],
      ]);
      expect(svc.metadata.annotations['service.beta.openshift.io/serving-cert-secret-name']).toBe(
        names.SERVING_CERT_SECRET,
      );
      expect(named(builds[b], 'PodDisruptionBudget', names.APP)).toBeDefined();
      expect(named(builds[b], 'ServiceMonitor', names.APP).spec.endpoints[0].path).toBe('/metrics');
      expect(named(builds[b], 'BuildConfig', names.APP).spec.strategy.dockerStrategy.dockerfilePath).toBe(
        'Containerfile',
      );
      expect(named(builds[b], 'ImageStream', names.APP).spec.lookupPolicy.local).toBe(true);
    }
  });

  test('Redis Cluster: 6 pods = 3 primaries + 3 replicas, AOF on a PVC; standalone: 1 pod', () => {
    const sts = named(builds.all, 'StatefulSet', 'redis-cluster');
    expect(sts.spec.replicas).toBe(6);
    const job = named(builds.all, 'Job', names.REDIS_CLUSTER_JOB);
    const replicasPerPrimary = Number(
      job.spec.template.spec.containers[0].env.find((e) => e.name === 'CLUSTER_REPLICAS').value,
    );
    expect(sts.spec.replicas / (1 + replicasPerPrimary)).toBe(3);
    expect(sts.spec.volumeClaimTemplates[0].spec.accessModes).toEqual(['ReadWriteOnce']);
    const config = ofKind(builds.all, 'ConfigMap').find((c) => c.metadata.name.startsWith('redis-config'));
    expect(config.data['redis-cluster.conf']).toMatch(/^appendonly yes$/m);
    expect(config.data['redis-cluster.conf']).toMatch(/^appendfsync everysec$/m);
    expect(config.data['redis-cluster.conf']).toMatch(/^cluster-enabled yes$/m);
    const standalone = ofKind(builds.sandbox, 'StatefulSet');
    expect(standalone.map((s) => [s.metadata.name, s.spec.replicas])).toEqual([['redis', 1]]);
  });

  test('router tuning: a sharded IngressController with threads, maxconn and replicas; every Route joins it', () => {
    const objects = builds['all+components'];
    const [ic] = ofKind(objects, 'IngressController');
    expect(ic.metadata.namespace).toBe('openshift-ingress-operator');
    expect(ic.spec.tuningOptions.threadCount).toBeGreaterThanOrEqual(1);
    expect(ic.spec.tuningOptions.maxConnections).toBeGreaterThan(0);
    expect(ic.spec.replicas).toBeGreaterThanOrEqual(1);
    for (const route of ofKind(objects, 'Route')) {
      expect(selects(ic.spec.routeSelector.matchLabels, route.metadata.labels)).toBe(true);
      expect(route.spec.subdomain).toBe(route.metadata.name);
    }
    // Without the component, the default router keeps the routes.
    for (const route of ofKind(builds.all, 'Route'))
      expect(route.metadata.labels[names.SHARD_LABEL]).toBeUndefined();
  });
});

describe('in-cluster k6', () => {
  test('k6 TestRun: parallel runners, scripts from the ConfigMap, summaries to the PVC', () => {
    const [tr] = ofKind(builds['all+components'], 'TestRun');
    expect(tr.spec.parallelism).toBeGreaterThan(1);
    const env = Object.fromEntries(tr.spec.runner.env.map((e) => [e.name, e]));
    expect(env.SUMMARY_PATH.value).toMatch(/^\/results\//);
    expect(env.NAMESPACE.valueFrom.fieldRef.fieldPath).toBe('metadata.namespace');
    expect(env.APPS_DOMAIN).toBeDefined();
    const mounts = Object.fromEntries(tr.spec.runner.volumeMounts.map((m) => [m.name, m.mountPath]));
    expect(tr.spec.script.localFile.startsWith(`${mounts.scripts}/`)).toBe(true);
    expect(mounts.results).toBe('/results');
  });

  test("the results reader mounts the runners' PVC where they wrote, read-only, in their image", () => {
    const objects = builds['all+components'];
    const [tr] = ofKind(objects, 'TestRun');
    const reader = named(objects, 'Pod', 'k6-results-reader');
    const [c] = reader.spec.containers;
    expect(c.image).toBe(tr.spec.runner.image);
    const claim = (spec, name) => spec.volumes.find((v) => v.name === name).persistentVolumeClaim.claimName;
    const mount = c.volumeMounts.find((m) => m.name === 'results');
    expect(claim(reader.spec, mount.name)).toBe(claim(tr.spec.runner, 'results'));
    expect(mount).toMatchObject({ mountPath: '/results', readOnly: true });
    expect(reader.spec.restartPolicy).toBe('Never');
  });
});

describe('network policies', () => {
  test('the data service accepts the router namespace, its own namespace and monitoring only', () => {
    for (const b of ['all', 'sandbox']) {
      const np = named(builds[b], 'NetworkPolicy', 'data-service-ingress');
      expect(np.spec.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': names.APP });
      expect(np.spec.policyTypes).toEqual(['Ingress']);
      const peers = np.spec.ingress.map((rule) => {
        expect(rule.from && rule.from.length).toBeGreaterThan(0); // an empty from would allow everyone
        return rule.from.map((f) => JSON.stringify(f)).join('|');
      });
      expect(peers).toEqual([
        JSON.stringify({
          namespaceSelector: { matchLabels: { 'policy-group.network.openshift.io/ingress': '' } },
        }),
        JSON.stringify({ podSelector: {} }),
        JSON.stringify({
          namespaceSelector: { matchLabels: { 'network.openshift.io/policy-group': 'monitoring' } },
        }),
      ]);
      // Own namespace and monitoring reach /metrics (http) only.
      expect(np.spec.ingress[1].ports.map((p) => p.port)).toEqual(['http']);
      expect(np.spec.ingress[2].ports.map((p) => p.port)).toEqual(['http']);
    }
  });

  test('Redis accepts only the data service and Redis itself', () => {
    for (const b of ['all', 'sandbox']) {
      const np = named(builds[b], 'NetworkPolicy', 'redis-ingress');
      expect(np.spec.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'redis' });
      const sources = np.spec.ingress.flatMap((rule) => rule.from);
      for (const s of sources) {
        expect(Object.keys(s)).toEqual(['podSelector']);
      }
      expect(sources.map((s) => s.podSelector.matchLabels['app.kubernetes.io/name']).sort()).toEqual([
        'data-service',
        'redis',
      ]);
      // Every Redis pod, including the cluster-forming Job, carries the label the policy allows.
      for (const { owner, labels } of podSpecs(builds[b]).filter((p) => /redis/.test(p.owner))) {
        expect({ owner, name: labels['app.kubernetes.io/name'] }).toEqual({ owner, name: 'redis' });
      }
    }
  });
});

describe('the Gateway API components', () => {
  const os = require('node:os');
  const { buildObjects, componentDir } = require('../../lib/cluster/kustomize');
  /** The objects of the named components alone, as a user's overlay composes them. */
  function components(...names) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-gateway-'));
    try {
      const refs = names.map((n) => `  - ${path.relative(dir, componentDir(n))}`).join('\n');
      fs.writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ncomponents:\n${refs}\n`,
      );
      return buildObjects(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  test('gateway-api applies without TLSRoute (standard only from Gateway API v1.5); gateway-api-passthrough adds it to its listener', () => {
    const base = components('gateway-api');
    expect(base.map((o) => o.kind).sort()).toEqual(['BackendTLSPolicy', 'Gateway', 'HTTPRoute', 'HTTPRoute']);
    // No listener waits for a route that is not there: passthrough's comes with its TLSRoute.
    expect(ofKind(base, 'Gateway')[0].spec.listeners.map((l) => l.name)).toEqual(['http', 'https']);
    for (const o of base) expect(o.apiVersion).toBe('gateway.networking.k8s.io/v1');
    const both = components('gateway-api', 'gateway-api-passthrough');
    const [route] = ofKind(both, 'TLSRoute');
    const [gateway] = ofKind(both, 'Gateway');
    const [parent] = route.spec.parentRefs;
    const listener = gateway.spec.listeners.find((l) => l.name === parent.sectionName);
    expect(listener).toMatchObject({ protocol: 'TLS', tls: { mode: 'Passthrough' } });
    expect(route.spec.hostnames).toEqual([listener.hostname]);
    // Its own Service: re-encrypt's BackendTLSPolicy names data-service's https port for every route.
    const [backend] = route.spec.rules[0].backendRefs;
    expect(named(both, 'Service', backend.name).spec.ports.map((p) => p.port)).toContain(backend.port);
  });
});
