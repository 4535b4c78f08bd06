'use strict';
// The router backends the lab can run (LAB_ROUTER), as plain data: what each needs installed,
// its defaults and what it cannot do. The knobs, setup and the commands read this before loading
// a backend (lib/lab/routers.js loads one).
const { WITH_PODS, WITHOUT_PODS } = require('../node/unsupported');
const { branchBuild } = require('../../setup/haproxy-release-build');
const ROUTER_KINDS = {
  template: require('../template-router/kind'),
  openshift: require('../openshift-router/kind'),
  gateway: require('../gateway/kind'),
};

/** The default backend, and the kind of a lab.json or results.json recorded before kinds were. */
const DEFAULT_ROUTER = 'template';

/** The descriptor of `kind`; throws naming the known kinds. */
function routerKind(kind = DEFAULT_ROUTER) {
  const found = Object.hasOwn(ROUTER_KINDS, kind) ? ROUTER_KINDS[kind] : null;
  if (!found) {
    throw new Error(
      `no router backend '${kind}' (LAB_ROUTER is one of ${Object.keys(ROUTER_KINDS).join(', ')})`,
    );
  }
  return found;
}

/** Why the router of `kind` cannot do `operation` (a scenario, a command, a reload's option), or null. */
function unsupportedBy(kind, operation) {
  return routerKind(kind).unsupported[operation] ?? null;
}

/** Why the running lab's router (lab.json's `router`) cannot do `operation`, or null: pods or none add their own. */
function unsupportedOn(router, operation) {
  return (router.node ? WITH_PODS : WITHOUT_PODS)[operation] || unsupportedBy(router.kind, operation);
}

/**
 * Setup's build of the HAProxy branch the router of `router` ships at `openshiftRelease`
 * (./haproxy-release-build.js's branchBuild), or null where the router ships none (the template).
 */
function releaseHaproxy({ router, openshiftRelease }) {
  const branch = routerKind(router).haproxyBranch?.(openshiftRelease);
  return branch ? branchBuild(branch) : null;
}

module.exports = { ROUTER_KINDS, DEFAULT_ROUTER, routerKind, unsupportedBy, unsupportedOn, releaseHaproxy };
