'use strict';
// Envoy as the Gateway's pod would run it, without the pod: a static bootstrap that connects to
// istiod over ADS as a proxy of the Gateway's namespace, labels and service account, which is all
// istiod needs to send it the Gateway's listeners, routes, clusters and certificates.
const fs = require('node:fs');
const path = require('node:path');
const { requireTool } = require('../../core/tools');
const { launch, assertRunning, waitUntil } = require('../common/stack');

const grpcCluster = (name, address) => ({
  name,
  type: 'STATIC',
  connect_timeout: '1s',
  typed_extension_protocol_options: {
    'envoy.extensions.upstreams.http.v3.HttpProtocolOptions': {
      '@type': 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
      explicit_http_config: { http2_protocol_options: {} },
    },
  },
  load_assignment: { cluster_name: name, endpoints: [{ lb_endpoints: [{ endpoint: { address } }] }] },
});

/**
 * The bootstrap for the proxy of `gateway` ({ name, namespace, serviceAccount, labels }) known by
 * `address`: istiod binds the Gateway to the proxies its Service selects, by these labels and by the
 * address in the Service's endpoints. `token` authenticates it (audience istio-ca).
 */
function bootstrap({ gateway, address, token, xdsPort, adminPort, dir }) {
  const podName = `${gateway.serviceAccount}-lab`;
  return {
    node: {
      id: `router~${address}~${podName}.${gateway.namespace}~${gateway.namespace}.svc.cluster.local`,
      cluster: `${gateway.serviceAccount}.${gateway.namespace}`,
      metadata: {
        NAMESPACE: gateway.namespace,
        NAME: podName,
        LABELS: gateway.labels,
        SERVICE_ACCOUNT: gateway.serviceAccount,
        CLUSTER_ID: 'Kubernetes',
        INSTANCE_IPS: address,
        WORKLOAD_NAME: gateway.serviceAccount,
      },
    },
    admin: { address: { socket_address: { address: '127.0.0.1', port_value: adminPort } } },
    dynamic_resources: {
      ads_config: {
        api_type: 'GRPC',
        transport_api_version: 'V3',
        grpc_services: [
          {
            envoy_grpc: { cluster_name: 'xds-grpc' },
            initial_metadata: [{ key: 'authorization', value: `Bearer ${token}` }],
          },
        ],
      },
      cds_config: { ads: {}, resource_api_version: 'V3' },
      lds_config: { ads: {}, resource_api_version: 'V3' },
    },
    static_resources: {
      clusters: [
        grpcCluster('xds-grpc', { socket_address: { address: '127.0.0.1', port_value: xdsPort } }),
        // Istio's clusters name the agent's SDS cluster; nothing here asks it for a certificate.
        grpcCluster('sds-grpc', { pipe: { path: path.join(dir, 'sds.sock') } }),
      ],
    },
  };
}

/** Starts Envoy with `bootstrap` options (see bootstrap); resolves once its admin port answers. */
async function startEnvoy(labDir, { dir, concurrency = 2, signal, ...options }) {
  fs.mkdirSync(dir, { recursive: true });
  const config = path.join(dir, 'envoy.json');
  fs.writeFileSync(config, JSON.stringify(bootstrap({ ...options, dir })), { mode: 0o600 });
  const record = launch(labDir, {
    name: 'envoy',
    role: 'router',
    file: requireTool('envoy'),
    args: ['-c', config, '--concurrency', String(concurrency), '--log-level', 'warning'],
    env: process.env,
    match: 'envoy',
  });
  await waitUntil(
    async () => {
      assertRunning(labDir, record);
      return (await fetch(`http://127.0.0.1:${options.adminPort}/ready`, { signal })).ok;
    },
    { timeoutMs: 60000, what: `Envoy ready (admin 127.0.0.1:${options.adminPort}/ready)`, signal },
  );
  return record;
}

module.exports = { bootstrap, startEnvoy };
