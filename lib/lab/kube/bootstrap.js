'use strict';
// What a cluster has before `oc apply -k` (the overlays' CRDs, the namespaces, the router's RBAC),
// the overlay applied with kubectl as the mission's command does, and the EndpointSlices an
// endpoints controller would write for the running data-service instances.
const crypto = require('node:crypto');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const path = require('node:path');
const { ROOT } = require('../../core/paths');
const { requireTool } = require('../../core/tools');
const { ensure } = require('./api');
const { installCrds } = require('./crds');
const { endpointSlice, slicesPath } = require('./endpoint-slices');
const { ROUTER_USER } = require('./control-plane');
const { NAMESPACE, SERVICE_NAME, ROUTER_NAMESPACE } = require('../common/routes');
const { scaleManifests, readBase } = require('../common/scale-routes');
const { routesPath, admittedStatus } = require('./routes-api');

const run = promisify(execFile);

const RBAC = '/apis/rbac.authorization.k8s.io/v1';

/** What the router reads and writes, as the ingress operator's ClusterRole grants it. */
const ROUTER_RULES = [
  { apiGroups: [''], resources: ['namespaces', 'services', 'endpoints'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['route.openshift.io'], resources: ['routes'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['route.openshift.io'], resources: ['routes/status'], verbs: ['get', 'patch', 'update'] },
  // Its metrics listener checks callers' tokens (TokenReview, SubjectAccessReview).
  { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
  { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
];

/** The namespaces, and the router's ClusterRole bound to its identity. */
async function createNamespacesAndRbac(admin) {
  for (const name of [NAMESPACE, ROUTER_NAMESPACE]) {
    await ensure(admin, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  const role = 'router-lab-openshift-router';
  await ensure(admin, `${RBAC}/clusterroles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: role },
    rules: ROUTER_RULES,
  });
  await ensure(admin, `${RBAC}/clusterrolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: role },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: ROUTER_USER }],
  });
}

const OPERATOR_NAMESPACE = 'openshift-ingress-operator';

/**
 * The ingress operator's IngressController, as far as the matrix reads it (`--target cluster`:
 * the router's threads and replicas): a schemaless stand-in for its CRD, not the operator's.
 */
const INGRESS_CONTROLLER_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'ingresscontrollers.operator.openshift.io' },
  spec: {
    group: 'operator.openshift.io',
    names: {
      kind: 'IngressController',
      listKind: 'IngressControllerList',
      plural: 'ingresscontrollers',
      singular: 'ingresscontroller',
    },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

/** The lab router's IngressController `default`: its threads, one replica, available. */
async function describeIngressController(admin, { threads, signal }) {
  await installCrds(admin, [INGRESS_CONTROLLER_CRD], { signal });
  await ensure(admin, '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: OPERATOR_NAMESPACE },
  });
  await ensure(admin, `/apis/operator.openshift.io/v1/namespaces/${OPERATOR_NAMESPACE}/ingresscontrollers`, {
    apiVersion: 'operator.openshift.io/v1',
    kind: 'IngressController',
    metadata: { name: 'default', namespace: OPERATOR_NAMESPACE },
    spec: { replicas: 1, tuningOptions: { threadCount: threads } },
    status: { availableReplicas: 1 },
  });
}

/** `kubectl apply -k overlays/<overlay>`; resolves its output lines, rejects with kubectl's message. */
async function applyOverlay(overlay, kubeconfig, { signal } = {}) {
  const dir = path.join(ROOT, 'overlays', overlay);
  const args = ['apply', '-k', dir, '--kubeconfig', kubeconfig, '-n', NAMESPACE];
  try {
    const { stdout } = await run(requireTool('kubectl'), args, { signal, timeout: 120000 });
    return stdout.trim().split('\n');
  } catch (err) {
    signal?.throwIfAborted();
    const said = (err.stderr || '').trim() || err.message;
    throw new Error(`kubectl apply -k overlays/${overlay} was refused:\n${said}`, { cause: err });
  }
}

/** Runs `fn` on each of `list`, `parallel` at a time: the API server takes requests in parallel. */
async function inBatches(list, fn, parallel = 16) {
  for (let i = 0; i < list.length; i += parallel) await Promise.all(list.slice(i, i + parallel).map(fn));
}

/**
 * Publishes one instance as an endpoint of each of `services` (default: the data service), as pod
 * `pod`: its own name by default (a pod that was not ready and is again), a new one after a
 * rollout (newPodName). The router tells the two apart by the pod's name.
 */
function publishEndpoint(admin, instance, { services = [SERVICE_NAME], pod = instance.name } = {}) {
  return inBatches(services, (service) => ensure(admin, slicesPath, endpointSlice(instance, service, pod)));
}

/** A new pod's name for `instance`, as a ReplicaSet names its pods: the name and a random suffix. */
function newPodName(instance) {
  return `${instance.name}-${crypto.randomBytes(4).toString('hex').slice(0, 5)}`;
}

/**
 * LAB_ROUTES's extra Routes through the API: each one's Service and Route, and an EndpointSlice per
 * instance for its Service, `parallel` requests at a time. With `admittedBy` ({ routerName,
 * canonicalHostname }), each Route's status is that router's admission, written before it starts:
 * Routes a cluster's router admitted before this router pod started.
 */
async function createScaleRoutes(admin, routes, instances, { admittedBy = null, parallel = 16 } = {}) {
  const base = readBase();
  const one = async (route) => {
    const [routeManifest, service] = scaleManifests(route, { base });
    await ensure(admin, `/api/v1/namespaces/${NAMESPACE}/services`, service);
    for (const instance of instances) await ensure(admin, slicesPath, endpointSlice(instance, route.name));
    const created = await ensure(admin, routesPath(), routeManifest);
    if (admittedBy) {
      await admin.put(`${routesPath()}/${route.name}/status`, {
        ...created,
        status: admittedStatus({ host: route.host, wildcardPolicy: created.spec.wildcardPolicy }, admittedBy),
      });
    }
  };
  await inBatches(routes, one, parallel);
}

/** Withdraws one instance from the endpoints of each of `services` (default: the data service). */
function withdrawEndpoint(admin, instance, { services = [SERVICE_NAME] } = {}) {
  return inBatches(services, (service) =>
    admin.delete(`${slicesPath}/${endpointSlice(instance, service).metadata.name}`).catch((err) => {
      if (err.status !== 404) throw err;
    }),
  );
}

module.exports = {
  ROUTER_NAMESPACE,
  ROUTER_RULES,
  OPERATOR_NAMESPACE,
  createNamespacesAndRbac,
  describeIngressController,
  applyOverlay,
  publishEndpoint,
  newPodName,
  withdrawEndpoint,
  createScaleRoutes,
  inBatches,
};
