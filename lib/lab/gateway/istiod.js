'use strict';
// istiod as OpenShift's Ingress Operator configures it for Gateways, run as a process of the lab
// against the lab's API server. Only what upstream Envoy lacks or what no pod provides here differs,
// each said below.
const fs = require('node:fs');
const path = require('node:path');
const { requireTool } = require('../../core/tools');
const { request } = require('../common/client');
const { launch, assertRunning, waitUntil } = require('../common/stack');

/** The class OpenShift's Ingress Operator makes, and the controller name istiod answers to. */
const GATEWAY_CLASS = { name: 'openshift-default', controller: 'openshift.io/gateway-controller/v1' };
const ISTIOD_NAMESPACE = 'istio-system';

/**
 * cluster-ingress-operator's settings (pkg/operator/controller/gatewayclass), then the lab's: no
 * Deployment controller (nothing would run its pods: the lab starts Envoy), no CA (no mesh), and
 * none of Istio's own filters, which upstream Envoy does not have. OpenShift's gateways run them,
 * so Envoy here does a little less per request than on a cluster.
 */
function istiodEnv() {
  return {
    POD_NAMESPACE: ISTIOD_NAMESPACE,
    POD_NAME: 'istiod-lab',
    PILOT_ENABLE_GATEWAY_API: 'true',
    PILOT_ENABLE_GATEWAY_API_STATUS: 'true',
    PILOT_ENABLE_GATEWAY_API_CA_CERT_ONLY: 'true',
    PILOT_ENABLE_ALPHA_GATEWAY_API: 'false',
    PILOT_ENABLE_GATEWAY_API_GATEWAYCLASS_CONTROLLER: 'false',
    PILOT_GATEWAY_API_DEFAULT_GATEWAYCLASS_NAME: GATEWAY_CLASS.name,
    PILOT_GATEWAY_API_CONTROLLER_NAME: GATEWAY_CLASS.controller,
    PILOT_ENABLE_GATEWAY_API_DEPLOYMENT_CONTROLLER: 'false',
    ENABLE_CA_SERVER: 'false',
    PILOT_ENABLE_METADATA_EXCHANGE: 'false',
    PILOT_ENABLE_ALPN_FILTER: 'false',
    // Plain-text xDS on loopback, still authenticated: Envoy presents a service account token.
    XDS_AUTH_PLAINTEXT: 'true',
  };
}

/** OpenShift's meshConfig for its gateways; auto mTLS off: there is no mesh, so no workload certs. */
const MESH_CONFIG = [
  'accessLogFile: /dev/stdout',
  'ingressControllerMode: "OFF"',
  'enableAutoMtls: false',
  'defaultConfig:',
  '  proxyHeaders:',
  '    server: { disabled: true }',
  '    envoyDebugHeaders: { disabled: true }',
  '',
].join('\n');

/**
 * Starts istiod for the lab in `dir` on `ports` ({ grpc, http, webhook, monitoring }); resolves
 * once it is ready (its caches synced with the API server).
 */
async function startIstiod(labDir, { dir, kubeconfig, ports, signal }) {
  fs.mkdirSync(dir, { recursive: true });
  const mesh = path.join(dir, 'mesh.yaml');
  fs.writeFileSync(mesh, MESH_CONFIG);
  const record = launch(labDir, {
    name: 'istiod',
    // Stopped with Envoy, while the API server still answers: stopped together, both waited
    // past lab:down's timeout (istiod for its watches, kube-apiserver for istiod's).
    role: 'router',
    file: requireTool('pilot-discovery'),
    args: [
      'discovery',
      `--kubeconfig=${kubeconfig}`,
      `--meshConfig=${mesh}`,
      '--networksConfig=/dev/null',
      `--grpcAddr=127.0.0.1:${ports.grpc}`,
      `--httpAddr=127.0.0.1:${ports.http}`,
      `--httpsAddr=127.0.0.1:${ports.webhook}`,
      `--monitoringAddr=127.0.0.1:${ports.monitoring}`,
      '--secureGRPCAddr=',
      '--ctrlz_port=0',
      // Its default waits 10 s for clients to go: at lab:down Envoy is already gone.
      '--shutdownDuration=1s',
      '--log_output_level=default:info',
    ],
    env: { ...process.env, ...istiodEnv() },
    match: 'pilot-discovery',
  });
  await waitUntil(
    async () => {
      assertRunning(labDir, record);
      return (await request(`http://127.0.0.1:${ports.http}/ready`, { timeoutMs: 1000 })).status === 200;
    },
    { timeoutMs: 60000, what: `istiod ready on 127.0.0.1:${ports.http}`, signal },
  );
  return record;
}

module.exports = { GATEWAY_CLASS, ISTIOD_NAMESPACE, startIstiod };
