'use strict';
// Envoy as the Gateway's pod would run it, without the pod: a static bootstrap that connects to
// istiod over ADS as a proxy of the Gateway's namespace, labels and service account, which is all
// istiod needs to send it the Gateway's listeners, routes, clusters and certificates.
const fs = require('node:fs');
const path = require('node:path');
const { requireTool } = require('../../core/tools');
const { request } = require('../common/client');
const { launch, assertRunning, waitUntil, logTail } = require('../common/stack');
const { pidFile, recordProcess } = require('../common/pids');
const { pidsRunning, readProcFile } = require('../../core/proc');

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
 * address in the Service's endpoints. `token` authenticates it (audience istio-ca); `maxConnections`
 * caps its downstream connections.
 */
function bootstrap({ gateway, address, token, xdsPort, adminPort, maxConnections, dir }) {
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
    // HAProxy's maxconn, as Envoy has it: connections past it are refused (none set: no limit).
    ...(maxConnections && {
      overload_manager: {
        resource_monitors: [
          {
            name: 'envoy.resource_monitors.global_downstream_max_connections',
            typed_config: {
              '@type':
                'type.googleapis.com/envoy.extensions.resource_monitors.downstream_connections.v3.DownstreamConnectionsConfig',
              max_active_downstream_connections: maxConnections,
            },
          },
        ],
      },
    }),
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

/**
 * Starts Envoy with `bootstrap` options (see bootstrap) as the lab's process `name` with `concurrency`
 * worker threads; resolves once it is ready (its first configuration from istiod applied).
 */
async function startEnvoy(labDir, { dir, name = 'envoy', cpus, concurrency = 2, signal, ...options }) {
  fs.mkdirSync(dir, { recursive: true });
  const config = path.join(dir, 'envoy.json');
  fs.writeFileSync(config, JSON.stringify(bootstrap({ ...options, dir })), { mode: 0o600 });
  // Envoy stops when the process that started it exits (lab:up's, here): setsid -f starts it from
  // a short-lived parent of its own, and the lab records Envoy's pid, found by its config path.
  launch(labDir, {
    name,
    role: 'router',
    file: 'setsid',
    args: [
      '-f',
      requireTool('envoy'),
      '-c',
      config,
      '--concurrency',
      String(concurrency),
      '--log-level',
      'warning',
      // Hot restart's shared memory (base id 0) admits one Envoy per host, and labs run side by
      // side; the lab never hot-restarts Envoy: istiod changes its configuration over xDS.
      '--disable-hot-restart',
    ],
    cpus,
    env: process.env,
    match: 'setsid',
  });
  let record = null;
  // Until its pid is recorded lab:down cannot stop it: an interrupted start stops it here.
  const found = () => {
    const [pid] = pidsRunning(config).filter((p) => (readProcFile(p, 'comm') || '').startsWith('envoy'));
    if (pid) {
      fs.writeFileSync(pidFile(labDir, name), `${pid}\n`);
      record = recordProcess(labDir, name, pid, { match: 'envoy', role: 'router' });
    }
    return record;
  };
  try {
    await waitUntil(found, {
      timeoutMs: 10000,
      what: `Envoy started (${config})`,
      signal,
      diagnose: () => logTail(labDir, name),
    });
  } catch (err) {
    for (const pid of pidsRunning(config)) process.kill(pid, 'SIGKILL');
    throw err;
  }
  await waitUntil(
    async () => {
      assertRunning(labDir, record);
      return (
        (await request(`http://127.0.0.1:${options.adminPort}/ready`, { timeoutMs: 1000 })).status === 200
      );
    },
    { timeoutMs: 60000, what: `Envoy ready (admin 127.0.0.1:${options.adminPort}/ready)`, signal },
  );
  return record;
}

module.exports = { bootstrap, startEnvoy };
