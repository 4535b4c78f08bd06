'use strict';
// What a browser-like client negotiates over ALPN with the router (it offers h2 and http/1.1, as
// k6 and browsers do), so that an HAProxy offering h2 where OpenShift would not (2.8+ without
// no-alpn) cannot go unnoticed into a benchmark.
const fs = require('node:fs');
const tls = require('node:tls');

const OFFER = ['h2', 'http/1.1'];

/** The protocol the server selected for `servername` ('h2', 'http/1.1'), or null for none. */
function negotiatedAlpn({ host = '127.0.0.1', port, servername, ca, timeoutMs = 5000 }) {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host, port, servername, ca, ALPNProtocols: OFFER });
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`no TLS handshake with ${servername} on ${host}:${port} in ${timeoutMs} ms`)),
    );
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      resolve(socket.alpnProtocol || null);
      socket.end();
    });
  });
}

/**
 * Checks the TLS-terminating routes (edge, re-encrypt) against `policy` ('http/1.1' or
 * 'h2,http/1.1'): h2 must be negotiated exactly when the policy offers it. Resolves
 * { edge, reencrypt } (the negotiated protocol, null for none); throws naming the route otherwise.
 */
async function checkAlpn({ port, routes, labCA, policy }) {
  const wantH2 = policy.split(',').includes('h2');
  const ca = fs.readFileSync(labCA);
  const seen = {};
  for (const route of routes.filter((r) => ['edge', 'reencrypt'].includes(r.termination))) {
    const got = await negotiatedAlpn({ port, servername: route.host, ca });
    seen[route.termination] = got;
    if ((got === 'h2') !== wantH2) {
      throw new Error(
        `the ${route.termination} route negotiated ${got ? `'${got}'` : 'no protocol'} over ALPN when ` +
          `offered ${OFFER.join(',')}, but the router was rendered for ${policy}` +
          (wantH2 ? '' : ": this HAProxy offers h2 where OpenShift's router does not (see docs/lab.md)"),
      );
    }
  }
  return seen;
}

module.exports = { OFFER, negotiatedAlpn, checkAlpn };
