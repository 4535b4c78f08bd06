'use strict';
// Whether a cell ran over the HTTP version its name claims, from the protocol of every response
// its client read; on re-encrypt, which version the router spoke to the service. Pure.

const ASKED = { h1: 'HTTP/1.1', h2: 'HTTP/2.0' };
const pct = (share, digits) => `${(share * 100).toFixed(digits)} %`;
// At least this share of responses in the claimed version for the claim to hold.
const MIN_SHARE = 0.99;

/** { claim, sharePct, holds, text, backend } for a cell with a protocol, else null. */
function protocolVerdict(cell) {
  if (!cell.protocol) return null;
  const asked = ASKED[cell.protocol];
  const protocols = cell.protocols || {};
  const total = Object.values(protocols).reduce((a, b) => a + b, 0);
  const backend = backendText(cell);
  if (!total) {
    return {
      claim: cell.protocol,
      sharePct: null,
      holds: null,
      text: 'not checked: no response was read',
      backend,
    };
  }
  const share = (protocols[asked] || 0) / total;
  const holds = share >= MIN_SHARE;
  const seen = Object.entries(protocols)
    .map(([p, n]) => `${p} ${pct(n / total, 0)}`)
    .join(', ');
  const text = holds
    ? `the client read ${asked} on ${pct(share, 1)} of responses: ${cell.protocol} as claimed`
    : `the client read ${seen}: not the ${cell.protocol} its name claims`;
  return { claim: cell.protocol, sharePct: Number((share * 100).toFixed(1)), holds, text, backend };
}

/** On a re-encrypt h2 cell: the version the router spoke to the service, from the service's ALPN. */
function backendText(cell) {
  if (cell.termination !== 'reencrypt' || cell.protocol !== 'h2') return null;
  if (!cell.serviceAlpn)
    return 'router to service: not known (the service’s TLS port could not be asked from here)';
  return cell.serviceAlpn === 'h2'
    ? 'router to service: h2 (the service answers ALPN with h2)'
    : `router to service: HTTP/1.1 (the service answers ALPN with ${cell.serviceAlpn})`;
}

module.exports = { protocolVerdict, MIN_SHARE };
