'use strict';
// Preflight for LAB_ROUTER=openshift: what the real router needs beyond the template lab's tools,
// each with how to get it. Errors stop lab:up before anything starts.
const fs = require('node:fs');
const { findTool, compareVersions } = require('../../core/tools');
const { openshiftRouterTool } = require('../../setup/openshift-router-build');
const { podNetworkProblem } = require('../common/pod-network');
const { nodeProblems } = require('../node/preflight');

/** The router's template uses `no-alpn`, which HAProxy has from 2.8 (Debian's 2.6 rejects it). */
const TEMPLATE_HAPROXY_MIN = '2.8.0';
/** Paths the router's files hard-code: mount points in its private mount namespace. */
const MOUNT_POINTS = ['/var/lib/haproxy', '/usr/sbin/haproxy'];

/** The problems that stop LAB_ROUTER=openshift here (empty when it can run). */
function openshiftPreflight(opts, haproxy) {
  const errors = [];
  const network = opts.pods ? null : podNetworkProblem();
  if (network) errors.push(network);
  if (opts.pods) errors.push(...nodeProblems());
  const router = openshiftRouterTool(opts.openshiftRelease).locate();
  if (!router || router.tooOld) {
    errors.push(
      `openshift-router ${opts.openshiftRelease} is not built: run 'npm run setup -- --for openshift'`,
    );
  }
  // The lab's monitoring (./monitoring.js) too.
  for (const tool of ['kube-apiserver', 'etcd', 'kubectl', 'prometheus', 'prometheus-process-exporter']) {
    if (!findTool(tool)) errors.push(`${tool} is not installed: run 'npm run setup -- --for openshift'`);
  }
  if (!findTool('unshare'))
    errors.push('unshare is not installed: install util-linux (the router runs in its own namespaces)');
  for (const point of MOUNT_POINTS.filter((p) => !fs.existsSync(p))) {
    errors.push(
      `${point} does not exist: the router's private mounts need it (Debian's haproxy package makes it)`,
    );
  }
  if (haproxy?.version && compareVersions(haproxy.version, TEMPLATE_HAPROXY_MIN) < 0) {
    errors.push(
      `haproxy ${haproxy.version} at ${haproxy.path} cannot run the router's template (no-alpn needs ` +
        `${TEMPLATE_HAPROXY_MIN} or newer): use the pinned build ('npm run setup -- --for lab') or LAB_HAPROXY`,
    );
  }
  return errors;
}

module.exports = { openshiftPreflight, TEMPLATE_HAPROXY_MIN };
