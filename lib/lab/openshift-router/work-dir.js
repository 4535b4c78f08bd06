'use strict';
// The router's working directory: the image's /var/lib/haproxy (Dockerfile.ocp's folders, empty
// map files and the router's template), copied into the lab and bind-mounted where the router's
// files expect it.
const fs = require('node:fs');
const path = require('node:path');
const { imageFiles } = require('../../setup/openshift-router-build');
const { routerPaths } = require('../haproxy/router-config');

/** The image's /var/lib/haproxy, copied into the lab: the template binds the lab's addresses only. */
const workDir = (labDir) => path.join(labDir, 'openshift-router');

/**
 * The template with its `bind :PORT` lines on `addresses` (the lab's one deviation from it):
 * loopback, and with pods the node's address, where the pods' Service for the router leads. Each
 * address gets a copy of the line, its port expression and options as they were.
 */
function boundTemplate(text, addresses = ['127.0.0.1']) {
  let count = 0;
  const out = text.replace(/^(\s*bind ):(?=[{0-9])(.*)$/gm, (match, head, rest) => {
    count++;
    return addresses.map((a) => `${head}${a}:${rest}`).join('\n');
  });
  // stats, public and public_ssl in the v4 branches: anything else means the template changed.
  if (count < 3) throw new Error(`the router's template has ${count} 'bind :PORT' lines, not the 3 expected`);
  return out;
}

/**
 * Lays out the image's /var/lib/haproxy (Dockerfile.ocp's folders and empty map files), the
 * template bound to `addresses`.
 */
function prepareWorkDir(labDir, release, addresses) {
  const dir = workDir(labDir);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(imageFiles(release), dir, { recursive: true });
  for (const sub of [
    'router/certs',
    'router/cacerts',
    'router/allowlists',
    'conf/.tmp',
    'run',
    'bin',
    'log',
    'mtls',
  ]) {
    fs.mkdirSync(path.join(dir, sub), { recursive: true });
  }
  for (const map of [
    'os_http_be',
    'os_edge_reencrypt_be',
    'os_tcp_be',
    'os_sni_passthrough',
    'os_route_http_redirect',
    'cert_config',
    'os_wildcard_domain',
  ]) {
    fs.writeFileSync(path.join(dir, 'conf', `${map}.map`), '');
  }
  const template = path.join(dir, 'conf', 'haproxy-config.template');
  fs.writeFileSync(template, boundTemplate(fs.readFileSync(template, 'utf8'), addresses));
  fs.mkdirSync(routerPaths(labDir).runDir, { recursive: true });
  return dir;
}

/** The configuration the router renders into its working directory `dir` (rewritten in place). */
const renderedConfig = (dir) => path.join(dir, 'conf', 'haproxy.config');

module.exports = { workDir, prepareWorkDir, boundTemplate, renderedConfig };
