'use strict';
// Names the manifests give what the code creates or waits for beside them (docs/contract.md):
// npm run cluster:deploy on OpenShift, and the lab's node (LAB_PODS=yes) likewise.
const cells = require('../../k6/lib/cells');

module.exports = {
  APP: cells.SERVICE_NAME,
  /** Created by npm run cluster:deploy (or the lab) with a random password, never committed. */
  REDIS_SECRET: 'redis-auth',
  REDIS_SECRET_KEY: 'password',
  /** Created by the service CA operator from the Service's serving-cert annotation (by the lab on its node). */
  SERVING_CERT_SECRET: `${cells.SERVICE_NAME}-tls`,
  /** The Job that forms Redis Cluster (redis/cluster/job-form-cluster.yaml). */
  REDIS_CLUSTER_JOB: 'redis-cluster-form',
};
