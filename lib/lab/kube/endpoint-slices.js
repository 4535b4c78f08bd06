'use strict';
// The EndpointSlices the lab writes for its instances (processes, not pods), as an endpoints
// controller would: one slice per instance, since each has ports of its own.
const { NAMESPACE, SERVICE_NAME } = require('../common/routes');

/**
 * The EndpointSlice an endpoints controller would write for one instance (its ports are its own,
 * so it gets a slice of its own): one endpoint at its address, the Service's named ports on its
 * ports, as pod `pod` (the instance's name; a rollout's new pod has a new name), or as no pod
 * (`pod: null`: an endpoint outside any pod, such as a VM's, which istiod then does not look up).
 */
function endpointSlice(instance, service = SERVICE_NAME, pod = instance.name) {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${service}-${instance.name}`,
      namespace: NAMESPACE,
      labels: {
        'kubernetes.io/service-name': service,
        'endpointslice.kubernetes.io/managed-by': 'router-lab',
      },
    },
    addressType: 'IPv4',
    endpoints: [
      {
        addresses: [instance.host],
        conditions: { ready: true, serving: true, terminating: false },
        ...(pod && { targetRef: { kind: 'Pod', name: pod, namespace: NAMESPACE } }),
      },
    ],
    ports: [
      { name: 'http', port: instance.port, protocol: 'TCP' },
      { name: 'https', port: instance.tlsPort, protocol: 'TCP' },
    ],
  };
}

const slicesPath = `/apis/discovery.k8s.io/v1/namespaces/${NAMESPACE}/endpointslices`;

module.exports = { endpointSlice, slicesPath };
