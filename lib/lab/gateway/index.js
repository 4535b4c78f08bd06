'use strict';
// The data service through the Gateway API beside the Routes of a lab with an API server: what a
// cluster admin provides (CRDs, class, certificate), overlays/components/gateway-api{,-passthrough}
// applied with kubectl, istiod, and Envoy as the Gateway's proxy.
const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { ROOT } = require('../../core/paths');
const { requireTool } = require('../../core/tools');
const { ensure } = require('../kube/api');
const { installCrds } = require('../kube/crds');
const { publishEndpoint, withdrawEndpoint } = require('../kube/bootstrap');
const { NAMESPACE, ROUTER_NAMESPACE, SERVICE_NAME } = require('../common/routes');
const { gatewayCrds } = require('../../setup/gateway-tools');
const { GATEWAY_CLASS, ISTIOD_NAMESPACE, startIstiod } = require('./istiod');
const { startEnvoy } = require('./envoy');

const run = promisify(execFile);

/** The Gateway of overlays/components/gateway-api, and what OpenShift makes for it. */
const GATEWAY = {
  name: 'data-service',
  namespace: ROUTER_NAMESPACE,
  // The Deployment's, Service's and ServiceAccount's name: <gateway>-<class>.
  serviceAccount: `data-service-${GATEWAY_CLASS.name}`,
  labels: {
    'gateway.networking.k8s.io/gateway-name': 'data-service',
    'gateway.networking.k8s.io/gateway-class-name': GATEWAY_CLASS.name,
  },
  tlsSecret: 'data-service-gateway-tls',
};

const api = (ns, kind) => `/api/v1/namespaces/${ns}/${kind}`;

/**
 * What a cluster has before `oc apply -k`: the CRDs, the class, istiod's namespace, the certificate;
 * and what the user makes: the service CA where re-encrypt's BackendTLSPolicy reads it.
 */
async function provideCluster(admin, { certs, signal }) {
  await installCrds(admin, gatewayCrds(), { signal });
  await ensure(admin, '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ISTIOD_NAMESPACE },
  });
  await ensure(admin, '/apis/gateway.networking.k8s.io/v1/gatewayclasses', {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'GatewayClass',
    metadata: { name: GATEWAY_CLASS.name },
    spec: { controllerName: GATEWAY_CLASS.controller },
  });
  const read = (file) => fs.readFileSync(path.join(certs.dir, file)).toString('base64');
  await ensure(admin, api(GATEWAY.namespace, 'secrets'), {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/tls',
    metadata: { name: GATEWAY.tlsSecret, namespace: GATEWAY.namespace },
    data: { 'tls.crt': read('router-default.crt'), 'tls.key': read('router-default.key') },
  });
  await ensure(admin, api(NAMESPACE, 'configmaps'), {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'data-service-ca', namespace: NAMESPACE },
    data: { 'ca.crt': fs.readFileSync(certs.serviceCA, 'utf8') },
  });
}

/**
 * What istiod's Deployment controller would make (off here: the lab runs Envoy): the Gateway's
 * ServiceAccount and Service, its ports 80 and 443 to Envoy's `ports`, and Envoy's `address` as the
 * Service's endpoint. Resolves a token of the ServiceAccount for istiod (audience istio-ca).
 */
async function provideGatewayPod(admin, { address, ports }) {
  const { namespace, serviceAccount: name, labels } = GATEWAY;
  const meta = { name, namespace, labels };
  await ensure(admin, api(namespace, 'serviceaccounts'), {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: meta,
  });
  await ensure(admin, api(namespace, 'services'), {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta,
    spec: {
      selector: labels,
      ports: [
        { name: 'http', port: 80, targetPort: ports.http, protocol: 'TCP' },
        { name: 'https', port: 443, targetPort: ports.https, protocol: 'TCP' },
      ],
    },
  });
  await ensure(admin, `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices`, {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${name}-lab`, namespace, labels: { 'kubernetes.io/service-name': name } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [address], conditions: { ready: true } }],
    ports: [
      { name: 'http', port: ports.http, protocol: 'TCP' },
      { name: 'https', port: ports.https, protocol: 'TCP' },
    ],
  });
  const request = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest' };
  const spec = { audiences: ['istio-ca'], expirationSeconds: 7 * 86400 };
  const granted = await admin.post(`${api(namespace, 'serviceaccounts')}/${name}/token`, {
    ...request,
    spec,
  });
  return granted.status.token;
}

/** The Services the component's routes send to: the data service's, and passthrough's own. */
const SERVICES = [SERVICE_NAME, `${SERVICE_NAME}-passthrough`];

/**
 * The instances as the endpoints of SERVICES with no Pod: istiod skips an endpoint whose Pod it
 * cannot find, and the instances are processes. { withdraw(instance), publish(instance) }.
 */
const gatewayEndpoints = (admin) => ({
  withdraw: (instance) => withdrawEndpoint(admin, instance, { services: SERVICES }),
  publish: (instance) => publishEndpoint(admin, instance, { services: SERVICES, pod: null }),
});

/** Replaces the slices a router lab wrote with pods by gatewayEndpoints'. */
async function publishWithoutPods(admin, instances) {
  const endpoints = gatewayEndpoints(admin);
  for (const instance of instances) {
    await endpoints.withdraw(instance);
    await endpoints.publish(instance);
  }
}

/**
 * `kubectl apply -k` of a kustomization in `dir` with the components, as a user's overlay would, its
 * re-encrypt and passthrough hostnames set to the lab's Routes' hosts (`hosts`, by termination).
 */
async function applyComponent(dir, kubeconfig, { hosts, signal }) {
  fs.mkdirSync(dir, { recursive: true });
  // Passthrough's TLSRoute is a component of its own: only newer Gateway API versions have it.
  const components = ['gateway-api', 'gateway-api-passthrough'].map((name) =>
    path.relative(dir, path.join(ROOT, 'overlays', 'components', name)),
  );
  const set = (where, value) => JSON.stringify([{ op: 'replace', path: where, value }]);
  const kustomization = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    components,
    patches: [
      {
        target: { kind: 'HTTPRoute', name: 'data-service-reencrypt' },
        patch: set('/spec/hostnames', [hosts.reencrypt]),
      },
      {
        target: { kind: 'TLSRoute', name: 'data-service-passthrough' },
        patch: set('/spec/hostnames', [hosts.passthrough]),
      },
      // The tls-passthrough listener: gateway-api-passthrough adds it after gateway.yaml's two.
      {
        target: { kind: 'Gateway', name: 'data-service' },
        patch: set('/spec/listeners/2/hostname', hosts.passthrough),
      },
    ],
  };
  // JSON is YAML: kustomize reads it as written.
  fs.writeFileSync(path.join(dir, 'kustomization.yaml'), JSON.stringify(kustomization, null, 2));
  // No -n: the Gateway names openshift-ingress, the HTTPRoute lands in the context's namespace.
  const args = ['apply', '-k', dir, '--kubeconfig', kubeconfig];
  const { stdout } = await run(requireTool('kubectl'), args, { signal, timeout: 120000 });
  return stdout.trim().split('\n');
}

/**
 * Starts the Gateway for a lab with an API server. `lab`: { labDir, kube: { admin, kubeconfig },
 * instances, routes (the lab's, for their hosts), certs, address (this host's non-loopback address: the pod network's side here),
 * ports: { http, https, admin, grpc, istiod, webhook, monitoring }, signal, log, envoy: { name, cpus,
 * concurrency } for its process record }.
 */
async function startGateway({
  labDir,
  kube,
  instances,
  routes,
  certs,
  address,
  ports,
  signal,
  log,
  envoy = {},
}) {
  const dir = path.join(labDir, 'gateway');
  log('• Gateway API: CRDs, GatewayClass openshift-default, istiod, Envoy');
  await provideCluster(kube.admin, { certs, signal });
  await publishWithoutPods(kube.admin, instances);
  const token = await provideGatewayPod(kube.admin, { address, ports });
  const hosts = Object.fromEntries(routes.map((r) => [r.termination, r.host]));
  for (const line of await applyComponent(dir, kube.kubeconfig, { hosts, signal })) log(`    ${line}`);
  const istiodPorts = {
    grpc: ports.grpc,
    http: ports.istiod,
    webhook: ports.webhook,
    monitoring: ports.monitoring,
  };
  const istiod = await startIstiod(labDir, { dir, kubeconfig: kube.kubeconfig, ports: istiodPorts, signal });
  await startEnvoy(labDir, {
    ...envoy,
    dir,
    gateway: GATEWAY,
    address,
    token,
    xdsPort: ports.grpc,
    adminPort: ports.admin,
    signal,
  });
  return {
    gateway: GATEWAY,
    ports,
    // The control plane, reported apart from Envoy: its pid for its CPU, its /metrics for its pushes.
    istiod: { pid: istiod.pid, monitoringUrl: `http://127.0.0.1:${ports.monitoring}` },
  };
}

module.exports = { GATEWAY, gatewayEndpoints, startGateway };
