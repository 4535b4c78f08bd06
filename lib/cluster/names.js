'use strict';
// Names the deploy scripts and the tests share with the manifests (docs/contract.md). The route
// vocabulary itself is k6/lib/cells.js, shared with the lab and the k6 scripts.
const cells = require('../../k6/lib/cells');

module.exports = {
  /** The project the docs and the scripts use by default ("current" picks the oc project). */
  DEFAULT_NAMESPACE: cells.DEFAULT_NAMESPACE,
  APP: cells.SERVICE_NAME,
  /** Created by npm run cluster:deploy with a random password, never committed. */
  REDIS_SECRET: 'redis-auth',
  REDIS_SECRET_KEY: 'password',
  /** Created by the service CA operator from the Service's serving-cert annotation. */
  SERVING_CERT_SECRET: `${cells.SERVICE_NAME}-tls`,
  TERMINATIONS: cells.TERMINATIONS,
  routeName: cells.routeName,
  REDIS_CLUSTER_JOB: 'redis-cluster-form',
  TESTRUN: 'router-matrix',
  RESULTS_PVC: 'k6-results',
  INGRESS_CONTROLLER: 'router-lab',
  SHARD_LABEL: 'router-lab.io/shard',
};
