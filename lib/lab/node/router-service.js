'use strict';
// How the node's pods reach the router, which runs on the host: the Service OpenShift names
// router-internal-default, at a fixed ClusterIP, its endpoint the node's address on the router's
// ports; CoreDNS answers every name of the apps domain with that ClusterIP (./controllers.js).
const { ensure } = require('../kube/api');

const { ROUTER_NAMESPACE: NAMESPACE } = require('../common/routes');
const NAME = 'router-internal-default';
const LABELS = { 'app.kubernetes.io/part-of': 'router-lab', 'kubernetes.io/service-name': NAME };

/** The Service (80 and 443, as on a cluster) and its one EndpointSlice: the host's router ports. */
function routerServiceObjects({ addresses, ports }) {
  const servicePorts = [
    { name: 'http', port: 80, hostPort: ports.http },
    { name: 'https', port: 443, hostPort: ports.https },
  ];
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: NAME, namespace: NAMESPACE },
    // No selector: the router is no pod here, so its endpoint is written below.
    spec: {
      clusterIP: addresses.routerServiceIp,
      ports: servicePorts.map((p) => ({
        name: p.name,
        port: p.port,
        targetPort: p.hostPort,
        protocol: 'TCP',
      })),
    },
  };
  const slice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${NAME}-node`, namespace: NAMESPACE, labels: LABELS },
    addressType: 'IPv4',
    endpoints: [{ addresses: [addresses.gateway], conditions: { ready: true } }],
    ports: servicePorts.map((p) => ({ name: p.name, port: p.hostPort, protocol: 'TCP' })),
  };
  return { service, slice };
}

async function createRouterService(admin, { addresses, ports }) {
  const { service, slice } = routerServiceObjects({ addresses, ports });
  await ensure(admin, `/api/v1/namespaces/${NAMESPACE}/services`, service);
  await ensure(admin, `/apis/discovery.k8s.io/v1/namespaces/${NAMESPACE}/endpointslices`, slice);
}

module.exports = { createRouterService, routerServiceObjects };
