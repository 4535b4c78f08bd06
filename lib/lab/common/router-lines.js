'use strict';
// The parts of lab:up's and lab:status's router lines that every backend shares (each backend's
// statusLines puts them together with its own).

/** The router's binary and what shapes TLS, in one line (null for a lab.json that lacks them). */
function tlsLine(router) {
  if (!router.haproxy) return null;
  const { haproxy, alpn, tls } = router;
  const left =
    tls && tls.groupsMissing.length ? ` (${tls.groupsMissing.join(', ')} left out: not in this OpenSSL)` : '';
  return (
    `  haproxy  ${haproxy.version} (${haproxy.source}: ${haproxy.path}), ${haproxy.openssl}; ALPN ${alpn.policy}; ` +
    `OpenShift ${tls.openshiftRelease} Intermediate profile${tls.groups ? `, groups ${tls.groups.join(':')}${left}` : ''}`
  );
}

/** Threads and maxconn, saying when the file-descriptor limit lowered maxconn. */
function sizingLine(router) {
  const lowered =
    router.maxconn !== router.maxconnRequested
      ? ` (lowered from ${router.maxconnRequested}: file-descriptor limit)`
      : '';
  return `${router.threads} thread(s), maxconn ${router.maxconn}${lowered}`;
}

module.exports = { tlsLine, sizingLine };
