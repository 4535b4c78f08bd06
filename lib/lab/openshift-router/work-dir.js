'use strict';
// The router's working directory: the image's /var/lib/haproxy (Dockerfile.ocp's folders, empty
// map files and the router's template), copied into the lab and bind-mounted where the router's
// files expect it.
const fs = require('node:fs');
const path = require('node:path');
const { imageFiles } = require('../../setup/openshift-router-build');
const { routerPaths } = require('../haproxy/router-config');

/** The image's /var/lib/haproxy, copied into the lab: the template binds loopback only. */
const workDir = (labDir) => path.join(labDir, 'openshift-router');

/** The template with its `bind :PORT` lines on 127.0.0.1 (the lab's one deviation from it). */
function loopbackTemplate(text) {
  let count = 0;
  const out = text.replace(/^(\s*bind ):(?=[{0-9])/gm, (match, head) => {
    count++;
    return `${head}127.0.0.1:`;
  });
  // stats, public and public_ssl in the v4 branches: anything else means the template changed.
  if (count < 3) throw new Error(`the router's template has ${count} 'bind :PORT' lines, not the 3 expected`);
  return out;
}

/** Lays out the image's /var/lib/haproxy (Dockerfile.ocp's folders and empty map files). */
function prepareWorkDir(labDir, release) {
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
  fs.writeFileSync(template, loopbackTemplate(fs.readFileSync(template, 'utf8')));
  fs.mkdirSync(routerPaths(labDir).runDir, { recursive: true });
  return dir;
}

module.exports = { workDir, prepareWorkDir, loopbackTemplate };
