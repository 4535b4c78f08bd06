'use strict';
// The router's HAProxy: which binary runs (LAB_HAPROXY, else the pinned build in .tools/bin, else
// the system's), and what `haproxy -vv` says about it: its version, its OpenSSL, its exporter.
// Everything that depends on the version (no-alpn, which TLS groups exist) asks this module.
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { requireTool, compareVersions } = require('../../core/tools');
const { TOOLS_BIN } = require('../../core/paths');
const { SSL_LIBRARY_LINES } = require('../../setup/haproxy-build');

/** The oldest HAProxy the lab supports (Debian 12's; the configuration is rendered for 2.6 and up). */
const HAPROXY_MIN = '2.6.0';
/** The branches OpenShift's router has shipped or ships: another major is worth a warning. */
const KNOWN_MAJORS = ['2', '3'];
/** From 2.8 on, HAProxy offers h2 over ALPN by default, and `no-alpn` exists to turn that off. */
const NO_ALPN_SINCE = '2.8.0';
/** From 3.3 on, a TLS server sends the request's Host as SNI by default (`sni-auto`), and verifies against it. */
const SNI_AUTO_SINCE = '3.3.0';

const cache = new Map();

/** `haproxy -vv` of a binary, read once per path. */
function vv(file) {
  if (!cache.has(file)) {
    let text;
    try {
      text = execFileSync(file, ['-vv'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 15000,
      });
    } catch (err) {
      throw new Error(`${file} -vv failed: is it an HAProxy binary? (${err.message.split('\n')[0]})`, {
        cause: err,
      });
    }
    cache.set(file, text);
  }
  return cache.get(file);
}

/**
 * What the lab knows about an HAProxy binary: { path, source, version, build, openssl,
 * builtWithOpenssl, prometheus, noAlpn, sniAuto }. `source` is how the knobs chose it (LAB_HAPROXY,
 * a release's own branch), else 'pinned' (.tools/bin) or 'system'.
 */
function describeHaproxy(file = requireTool('haproxy'), { source = null } = {}) {
  const text = vv(file);
  const field = (re) => (re.exec(text) || [])[1]?.trim() || null;
  const version = field(/version (\d+\.\d+\.\d+)/);
  return {
    path: file,
    source: source || (path.dirname(file) === TOOLS_BIN ? 'pinned' : 'system'),
    version,
    build: field(/HAProxy version (\S+)/),
    openssl: field(SSL_LIBRARY_LINES.running),
    builtWithOpenssl: field(SSL_LIBRARY_LINES.builtWith),
    prometheus: /\bUSE_PROMEX=1\b|prometheus-exporter|Prometheus exporter/i.test(text),
    noAlpn: Boolean(version) && compareVersions(version, NO_ALPN_SINCE) >= 0,
    sniAuto: Boolean(version) && compareVersions(version, SNI_AUTO_SINCE) >= 0,
  };
}

/** Preflight: an error below the minimum, a warning for a major OpenShift never ran. */
function checkHaproxyVersion(info) {
  if (!info.version) return { warnings: [`${info.path} printed no version: is it HAProxy?`] };
  if (compareVersions(info.version, HAPROXY_MIN) < 0) {
    return {
      errors: [
        `haproxy ${info.version} at ${info.path} is too old: the lab needs ${HAPROXY_MIN} or newer ` +
          `(the router's configuration is rendered for 2.6 and newer); run 'npm run setup -- --for lab', or point LAB_HAPROXY at a newer one`,
      ],
    };
  }
  if (!KNOWN_MAJORS.includes(info.version.split('.')[0])) {
    return {
      warnings: [
        `haproxy ${info.version} at ${info.path}: OpenShift's router has run 2.x and 3.x only; ` +
          `results may not carry over to a cluster`,
      ],
    };
  }
  return {};
}

/** What lab.json keeps of the router's HAProxy (describeHaproxy's result): which binary, which OpenSSL. */
function haproxySummary({ path: file, source, version, build, openssl }) {
  return { path: file, source, version, build, openssl };
}

module.exports = { HAPROXY_MIN, NO_ALPN_SINCE, describeHaproxy, checkHaproxyVersion, haproxySummary };
