'use strict';
// The node's names and addresses (LAB_PODS=yes), per lab from its directory, in 198.18.0.0/15 (RFC
// 2544), never a private range: pods in 198.18.128.0/17 (a /24 per lab, its .1 the bridge: the
// node's address, the pods' gateway and DNS), Services in 198.19.0.0/16 (a /18 per lab).
const crypto = require('node:crypto');
const path = require('node:path');

/** The node's name in the API, as `kubectl get nodes` shows it. */
const NODE_NAME = 'router-lab-node';
/** The cluster's DNS domain (kubelet's clusterDomain, CoreDNS's zone). */
const CLUSTER_DOMAIN = 'cluster.local';

/** Everything the node of the lab in `labDir` is addressed by. */
function nodeAddresses(labDir) {
  const digest = crypto.createHash('sha256').update(path.resolve(labDir)).digest();
  const id = digest.toString('hex').slice(0, 8);
  const pods = `198.18.${128 + (digest[0] & 127)}`;
  const services = 64 * (digest[1] & 3);
  return {
    id,
    nodeName: NODE_NAME,
    clusterDomain: CLUSTER_DOMAIN,
    // Linux allows 15 characters in an interface name.
    bridge: `rlnode${id.slice(0, 6)}`,
    podCidr: `${pods}.0/24`,
    gateway: `${pods}.1`,
    serviceCidr: `198.19.${services}.0/18`,
    // The first address of the Service range: the `kubernetes` Service's, as on any cluster.
    apiServiceIp: `198.19.${services}.1`,
    // The router's in-cluster Service (OpenShift's router-internal-default): the apps domain's
    // address for the pods, as a cluster's DNS gives its load balancer's.
    routerServiceIp: `198.19.${services}.10`,
    // kubelet's cgroups for the pods, apart from the machine's own (cgroup v1: one per hierarchy).
    cgroupRoot: `/routerlab-${id}`,
  };
}

module.exports = { nodeAddresses, NODE_NAME, CLUSTER_DOMAIN };
