'use strict';
// Names the deploy scripts and the tests share with the manifests (docs/contract.md). The route
// vocabulary itself is k6/lib/cells.js, shared with the lab and the k6 scripts.
const cells = require('../../k6/lib/cells');
const manifestNames = require('../core/manifest-names');

module.exports = {
  /** The project the docs and the scripts use by default ("current" picks the oc project). */
  DEFAULT_NAMESPACE: cells.DEFAULT_NAMESPACE,
  ...manifestNames,
  TERMINATIONS: cells.TERMINATIONS,
  routeName: cells.routeName,
  TESTRUN: 'router-matrix',
  RESULTS_PVC: 'k6-results',
  INGRESS_CONTROLLER: 'router-lab',
  SHARD_LABEL: 'router-lab.io/shard',
};
