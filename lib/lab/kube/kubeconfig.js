'use strict';
// A kubeconfig's current context, as `oc` and `kubectl` read it: the server, its CA and the
// user's credentials (a token, or a client certificate), for ./api.js's client. File paths in it
// are relative to the kubeconfig's own folder.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const yaml = require('../../core/dependency').lazyDependency('js-yaml');

/** The kubeconfig oc and kubectl use: $KUBECONFIG's first file, else ~/.kube/config. */
function defaultKubeconfig(env = process.env) {
  const first = (env.KUBECONFIG || '').split(path.delimiter).find(Boolean);
  return first || path.join(os.homedir(), '.kube', 'config');
}

const named = (list, name, what, file) => {
  const found = (list || []).find((entry) => entry.name === name);
  if (!found)
    throw new Error(`${file}: the current context names ${what} '${name}', which it does not define`);
  return found;
};

/** PEM from a `<field>-data` (base64) or a `<field>` file path, or undefined. */
function pem(section, field, dir) {
  if (section[`${field}-data`]) return Buffer.from(section[`${field}-data`], 'base64').toString('utf8');
  if (section[field]) return fs.readFileSync(path.resolve(dir, section[field]), 'utf8');
  return undefined;
}

/**
 * { file, context, namespace, server, ca, token, cert, key, insecure } of the kubeconfig's
 * current context. Throws naming the file and what is missing.
 */
function readKubeconfig(file) {
  let doc;
  try {
    doc = yaml.load(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the kubeconfig ${file}: ${err.message}`, { cause: err });
  }
  const contextName = doc && doc['current-context'];
  if (!contextName)
    throw new Error(`${file} has no current-context: 'oc login' or 'kubectl config use-context'`);
  const { context } = named(doc.contexts, contextName, 'context', file);
  const { cluster } = named(doc.clusters, context.cluster, 'cluster', file);
  const { user = {} } = context.user ? named(doc.users, context.user, 'user', file) : {};
  const dir = path.dirname(file);
  const token =
    user.token || (user.tokenFile && fs.readFileSync(path.resolve(dir, user.tokenFile), 'utf8').trim());
  return {
    file,
    context: contextName,
    namespace: context.namespace || null,
    server: cluster.server,
    ca: pem(cluster, 'certificate-authority', dir),
    insecure: Boolean(cluster['insecure-skip-tls-verify']),
    token: token || undefined,
    cert: pem(user, 'client-certificate', dir),
    key: pem(user, 'client-key', dir),
  };
}

module.exports = { defaultKubeconfig, readKubeconfig };
