'use strict';
// The OpenShift CLI, for the deploy scripts: found, logged in, and run with errors that say what
// to do. Output is captured unless `inherit` (builds and rollouts stream to the terminal). Where
// there is no oc, kubectl stands in for what cluster:k6 asks (plain Kubernetes, the lab's node).
const { spawnSync } = require('node:child_process');
const { findTool } = require('../core/tools');

class OcError extends Error {}

const NO_OC =
  "the OpenShift CLI 'oc' is not on PATH: download it from your cluster's console (? > Command line tools) or https://mirror.openshift.com/pub/openshift-v4/clients/ocp/stable/";

/** oc's path; throws saying where to get it (cluster:deploy and teardown need oc itself). */
function ocPath() {
  const oc = findTool('oc');
  if (!oc) throw new OcError(NO_OC);
  return oc;
}

/** kubectl's spelling of the oc commands it lacks; the rest are the same in both. */
const KUBECTL_SPELLING = {
  // `oc whoami -t`: the bearer token of the current context.
  whoami: (args) =>
    args.includes('-t')
      ? ['config', 'view', '--raw', '--minify', '-o', 'jsonpath={.users[0].user.token}']
      : ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'],
  project: () => ['config', 'view', '--minify', '-o', 'jsonpath={..namespace}'],
};

/** The command line to run: oc, else kubectl with oc's commands spelled its way. */
function command(args) {
  const oc = findTool('oc');
  if (oc) return [oc, args];
  const kubectl = findTool('kubectl');
  if (!kubectl) throw new OcError(`${NO_OC} (nor is kubectl)`);
  const spelling = KUBECTL_SPELLING[args[0]];
  return [kubectl, spelling ? spelling(args) : args];
}

/** Runs oc (or kubectl); returns stdout. Throws OcError with its message unless `allowFail`. */
function oc(args, { input, inherit = false, allowFail = false } = {}) {
  const [file, argv] = command(args);
  const r = spawnSync(file, argv, {
    // This module's process.env, named: under Jest it is the test's, which the default (the
    // worker's own) is not, so a KUBECONFIG a test sets reaches oc.
    env: process.env,
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

/**
 * The user oc is logged in as; throws with the login hint when it is not. `ocOnly`: the command
 * needs oc itself (builds, projects), and kubectl will not do.
 */
function requireLogin({ ocOnly = false } = {}) {
  if (ocOnly) ocPath();
  const r = oc(['whoami'], { allowFail: true });
  if (!r.ok) {
    throw new OcError(
      "oc is not logged in to a cluster: run 'oc login <api url>' (Developer Sandbox: in the console, your name > Copy login command); with kubectl, set KUBECONFIG" +
        (r.stderr.trim() ? `\n(${r.stderr.trim().split('\n')[0]})` : ''),
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
