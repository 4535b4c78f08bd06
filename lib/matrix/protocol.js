'use strict';
// The protocol axis at run time: which h2 cells cannot be measured here and why, and what the data
// service answers over ALPN (the re-encrypt backend's side). k6 is held to a cell's version in
// lib/load/k6.js.
const { negotiate } = require('./handshake-floor');

/**
 * Why an h2 cell cannot run here, or null. Passthrough leaves ALPN to the data service, which offers
 * http/1.1 only; resumed cells are driven by wrk, which speaks HTTP/1.1 only; a lab router started
 * without HTTP/2 offers none (a cluster's is only known from what k6 gets: the cell's evidence).
 */
function h2Skip(cell, target) {
  if (cell.protocol !== 'h2') return null;
  if (cell.termination === 'passthrough') {
    return 'the data service behind a passthrough route answers ALPN with http/1.1 only, so no client gets h2 there';
  }
  if (cell.tlsSession === 'resumed') return 'resumed sessions are driven by wrk, which speaks HTTP/1.1 only';
  if (target.mode === 'lab' && !target.http2) {
    return "the lab's router offers HTTP/1.1 only: start it with LAB_ROUTER_HTTP2=true";
  }
  return null;
}

/**
 * What the data service answers when a client (the router, on re-encrypt) offers h2 and http/1.1
 * over ALPN: 'h2', 'http/1.1', or null when it cannot be asked from here (a cluster, no answer).
 */
async function serviceAlpn(lab) {
  const instance = lab?.instances?.[0];
  if (!instance?.tlsPort) return null;
  try {
    const seen = await negotiate({ host: instance.host, port: instance.tlsPort, alpn: ['h2', 'http/1.1'] });
    return seen.alpn || 'none';
  } catch {
    return null;
  }
}

module.exports = { h2Skip, serviceAlpn };
