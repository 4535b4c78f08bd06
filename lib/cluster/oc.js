'use strict';
// The OpenShift CLI, for the deploy scripts: found, logged in, and run with errors that say what
// to do. Output is captured unless `inherit` (builds and rollouts stream to the terminal).
const { spawnSync } = require('node:child_process');
const { findTool } = require('../core/tools');

class OcError extends Error {}

function ocPath() {
  const oc = findTool('oc');
  if (!oc) {
    throw new OcError(
      "the OpenShift CLI 'oc' is not on PATH: download it from your cluster's console (? > Command line tools) or https://mirror.openshift.com/pub/openshift-v4/clients/ocp/stable/",
    );
  }
  return oc;
}

/** Runs oc; returns stdout. Throws OcError with oc's message unless `allowFail`. */
function oc(args, { input, inherit = false, allowFail = false } = {}) {
  const r = spawnSync(ocPath(), args, {
    input,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    stdio: inherit ? ['ignore', 'inherit', 'inherit'] : ['pipe', 'pipe', 'pipe'],
  });
  if (r.error) throw new OcError(`oc ${args[0]}: ${r.error.message}`);
  if (r.status !== 0 && !allowFail) {
    const detail = inherit ? 'see the output above' : (r.stderr || r.stdout || '').trim();
    throw new OcError(`oc ${args.join(' ')} failed: ${detail}`);
  }
  return allowFail ? { ok: r.status === 0, stdout: r.stdout || '', stderr: r.stderr || '' } : r.stdout || '';
}

/** The user oc is logged in as; throws with the login hint when it is not. */
function requireLogin() {
  const r = oc(['whoami'], { allowFail: true });
  if (!r.ok) {
    throw new OcError(
      "oc is not logged in to a cluster: run 'oc login <api url>' (Developer Sandbox: in the console, your name > Copy login command)",
    );
  }
  return r.stdout.trim();
}

const currentProject = () => oc(['project', '-q'], { allowFail: true }).stdout.trim() || null;

/** The project a --namespace option names ("current": the current oc project); throws if none. */
function resolveNamespace(option) {
  const namespace = option === 'current' ? currentProject() : option;
  if (!namespace) throw new OcError('no current project: pass --namespace NS');
  return namespace;
}

/** The cluster's apps domain (ingresses.config/cluster), or null when the user may not read it. */
function appsDomain() {
  const r = oc(['get', 'ingresses.config/cluster', '-o', 'jsonpath={.spec.domain}'], { allowFail: true });
  return r.ok && r.stdout.trim() ? r.stdout.trim() : null;
}

/** True when the API server serves `resource` (e.g. testruns.k6.io). */
function serves(group, plural) {
  const r = oc(['api-resources', `--api-group=${group}`, '-o', 'name'], { allowFail: true });
  return r.ok && r.stdout.split('\n').some((line) => line.trim() === `${plural}.${group}`);
}

/** Creates the project unless it exists. */
function ensureProject(namespace, log) {
  if (oc(['get', 'namespace', namespace], { allowFail: true }).ok) return;
  if (oc(['get', 'project', namespace], { allowFail: true }).ok) return;
  log(`creating project ${namespace}`);
  const r = oc(['new-project', namespace, '--skip-config-write'], { allowFail: true });
  if (!r.ok) {
    throw new OcError(
      `cannot create project ${namespace}: ${r.stderr.trim()}\n(On the Developer Sandbox use your own project: --namespace "$(oc project -q)")`,
    );
  }
}

module.exports = {
  OcError,
  oc,
  ocPath,
  requireLogin,
  currentProject,
  resolveNamespace,
  appsDomain,
  serves,
  ensureProject,
};
