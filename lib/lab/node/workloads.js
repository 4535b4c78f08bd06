'use strict';
// The overlay's pods on the lab's node (LAB_PODS=yes): what OpenShift adds around `oc apply -k`
// (Redis password, service CA certificate, volumes, the SCC's user), then `kubectl apply -k` of a
// lab overlay that takes the repository's overlay as is, its images mapped to those built here.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const yaml = require('../../core/dependency').lazyDependency('js-yaml');
const { ROOT } = require('../../core/paths');
const { requireTool } = require('../../core/tools');
const names = require('../../core/manifest-names');
const { kustomizeImages } = require('../../images');
const { NAMESPACE } = require('../common/routes');
const { waitUntil } = require('../common/stack');
const { nodePaths } = require('./paths');
const { containerProcess } = require('./cgroups');

const run = promisify(execFile);

/** The UID (and fsGroup) OpenShift's restricted-v2 SCC would give the namespace's pods. */
const SCC_UID = 1000680000;
/** Redis Cluster's pods as the manifests ask (6 × 250m) do not fit a 2-core node beside the service. */
const REDIS_CPU_REQUEST = '100m';

/** What the pods' Redis runs as: the overlays' Redis Cluster, or LAB_REDIS=standalone's one pod. */
function redisBase(redisMode) {
  return path.join(ROOT, 'redis', redisMode === 'cluster' ? 'cluster' : 'standalone');
}

/**
 * The lab's kustomization: the overlay as users apply it (or, with LAB_REDIS=standalone, its
 * service and Routes over the standalone Redis), the images built here, and the SCC's user.
 */
function labKustomization({ overlay, redisMode, replicas, images, dir }) {
  // kustomize takes bases by relative path only.
  const rel = (to) => path.relative(dir, to);
  const overlayDir = path.join(ROOT, 'overlays', overlay);
  const own = yaml.load(fs.readFileSync(path.join(overlayDir, 'kustomization.yaml'), 'utf8'));
  const standalone = redisMode !== 'cluster';
  const securityContext = { runAsUser: SCC_UID, fsGroup: SCC_UID };
  const podPatch = (kind) => ({
    target: { kind },
    patch: yaml.dump({
      apiVersion: kind === 'Job' ? 'batch/v1' : 'apps/v1',
      kind,
      metadata: { name: 'any' },
      spec: { template: { spec: { securityContext } } },
    }),
  });
  return {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    namespace: NAMESPACE,
    resources: standalone
      ? [rel(path.join(ROOT, 'manifests')), rel(redisBase('standalone'))]
      : [rel(overlayDir)],
    ...(standalone && own.components
      ? { components: own.components.map((c) => rel(path.resolve(overlayDir, c))) }
      : {}),
    images: kustomizeImages(images),
    replicas: [{ name: names.APP, count: replicas }],
    patches: [
      ...['Deployment', 'StatefulSet', 'Job'].map(podPatch),
      {
        target: { kind: 'StatefulSet', name: 'redis.*' },
        patch: yaml.dump([
          {
            op: 'replace',
            path: '/spec/template/spec/containers/0/resources/requests/cpu',
            value: REDIS_CPU_REQUEST,
          },
        ]),
      },
    ],
  };
}

/** The Secrets cluster:deploy and the service CA operator would make. */
async function createSecrets(admin, certs) {
  const secret = (name, type, data) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: NAMESPACE },
    type,
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  });
  const collection = `/api/v1/namespaces/${NAMESPACE}/secrets`;
  await admin.post(
    collection,
    secret(names.REDIS_SECRET, 'Opaque', {
      [names.REDIS_SECRET_KEY]: crypto.randomBytes(18).toString('hex'),
    }),
  );
  await admin.post(
    collection,
    secret(names.SERVING_CERT_SECRET, 'kubernetes.io/tls', {
      'tls.crt': fs.readFileSync(certs.serviceCert),
      'tls.key': fs.readFileSync(certs.serviceKey),
    }),
  );
}

/**
 * A PersistentVolume of 1 GiB on the node's directory `dir`, for claims without a storage class
 * (the lab has none: a cluster's would provision them).
 */
function hostPathVolume(name, dir, { accessMode, reclaim }) {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: [accessMode],
      persistentVolumeReclaimPolicy: reclaim,
      storageClassName: '',
      hostPath: { path: dir, type: 'Directory' },
    },
  };
}

/**
 * A hostPath PersistentVolume per Redis pod, empty: the API server is new at each lab:up, so are its
 * claims. (An earlier lab's nodes.conf would name peers at addresses other pods now have.)
 */
async function createVolumes(admin, labDir, count) {
  for (let i = 0; i < count; i++) {
    const dir = path.join(nodePaths(labDir).root, 'volumes', `pv-${i}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    // The pod's arbitrary UID writes here: a hostPath volume is not chowned to its fsGroup.
    fs.chmodSync(dir, 0o777);
    await admin.post(
      '/api/v1/persistentvolumes',
      hostPathVolume(`router-lab-pv-${i}`, dir, { accessMode: 'ReadWriteOnce', reclaim: 'Delete' }),
    );
  }
}

/** Writes the lab's kustomization and applies it; resolves kubectl's lines. */
async function applyPods(lab, images) {
  const { labDir, opts, kube, signal } = lab;
  const dir = path.join(nodePaths(labDir).root, 'overlay');
  fs.mkdirSync(dir, { recursive: true });
  const kustomization = labKustomization({
    overlay: opts.overlay,
    redisMode: opts.redisMode,
    replicas: opts.replicas,
    images,
    dir,
  });
  fs.writeFileSync(path.join(dir, 'kustomization.yaml'), yaml.dump(kustomization));
  await createSecrets(kube.admin, lab.certs);
  await createVolumes(kube.admin, labDir, opts.redisMode === 'cluster' ? 6 : 1);
  try {
    const { stdout } = await run(
      requireTool('kubectl'),
      ['apply', '-k', dir, '--kubeconfig', kube.kubeconfig],
      {
        signal,
        timeout: 120000,
      },
    );
    return stdout.trim().split('\n');
  } catch (err) {
    signal?.throwIfAborted();
    throw new Error(`kubectl apply -k ${dir} was refused:\n${(err.stderr || err.message).trim()}`, {
      cause: err,
    });
  }
}

/** The namespace's pods, by name: { phase, ready, ip, containerId, node }. */
async function podsOf(admin) {
  const list = await admin.get(`/api/v1/namespaces/${NAMESPACE}/pods`);
  return list.items.map((p) => ({
    name: p.metadata.name,
    labels: p.metadata.labels || {},
    phase: p.status.phase,
    ready: (p.status.conditions || []).some((c) => c.type === 'Ready' && c.status === 'True'),
    terminating: Boolean(p.metadata.deletionTimestamp),
    ip: p.status.podIP ?? null,
    containerId: (p.status.containerStatuses?.[0]?.containerID || '').replace(/^\w+:\/\//, '') || null,
    waiting: p.status.containerStatuses?.[0]?.state?.waiting?.reason ?? null,
  }));
}

/** Waits until the data service and Redis are ready (and Redis Cluster's formation Job is done). */
async function waitPodsReady(lab, { timeoutMs = 300000 } = {}) {
  const { kube, signal, opts } = lab;
  let last = [];
  await waitUntil(
    async () => {
      last = await podsOf(kube.admin);
      const service = last.filter((p) => p.labels['app.kubernetes.io/name'] === names.APP);
      // Redis's StatefulSet pods (the formation Job's pod carries the same name label).
      const redis = last.filter(
        (p) =>
          p.labels['app.kubernetes.io/name'] === 'redis' && p.labels['statefulset.kubernetes.io/pod-name'],
      );
      const formed =
        opts.redisMode !== 'cluster' ||
        (await kube.admin.get(`/apis/batch/v1/namespaces/${NAMESPACE}/jobs/${names.REDIS_CLUSTER_JOB}`))
          .status?.succeeded >= 1;
      return (
        service.filter((p) => p.ready).length === opts.replicas &&
        redis.length === (opts.redisMode === 'cluster' ? 6 : 1) &&
        redis.every((p) => p.ready) &&
        formed
      );
    },
    {
      timeoutMs,
      intervalMs: 1000,
      what: 'every pod ready',
      signal,
      diagnose: () =>
        `\n${last.map((p) => `  ${p.name} ${p.phase}${p.ready ? ' ready' : ''}${p.waiting ? ` (${p.waiting})` : ''}`).join('\n')}`,
    },
  );
  return last;
}

/** The data service's ready pods (not those draining) as the lab's instances (lab.json's `instances`). */
function podInstances(pods, cgroupRoot) {
  return pods
    .filter((p) => p.labels['app.kubernetes.io/name'] === names.APP && p.ready && !p.terminating)
    .map((p) => ({
      name: p.name,
      host: p.ip,
      port: 8080,
      tlsPort: 8443,
      pid: containerProcess(cgroupRoot, p.containerId),
    }));
}

module.exports = {
  hostPathVolume,
  labKustomization,
  applyPods,
  waitPodsReady,
  podsOf,
  podInstances,
  SCC_UID,
};
