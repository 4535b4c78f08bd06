'use strict';
// Whether a cell ran over the HTTP version its name claims, from the protocol of every response
// its client read and of every request the router received; on re-encrypt h2, which version the
// router spoke to the service. Pure.
const { streamShare } = require('./streams');

const ASKED = { h1: 'HTTP/1.1', h2: 'HTTP/2.0' };
const pct = (share, digits) => `${(share * 100).toFixed(digits)} %`;
// At least this share of responses in the claimed version for the claim to hold.
const MIN_SHARE = 0.99;

const sharePctOf = (share) => (share === null ? null : Number((share * 100).toFixed(1)));

/**
 * { claim, sharePct, routerSharePct, holds, text, backend } for a cell with a protocol, else null.
 * The claim holds when the client's responses and, where the router counted HTTP streams (not on
 * passthrough, not on a cluster), the requests the router received are both of its version.
 */
function protocolVerdict(cell) {
  if (!cell.protocol) return null;
  const asked = ASKED[cell.protocol];
  const protocols = cell.protocols || {};
  const total = Object.values(protocols).reduce((a, b) => a + b, 0);
  const streams = cell.router?.counters?.streams;
  const routerShare = streamShare(streams, 'received', cell.protocol);
  const base = {
    claim: cell.protocol,
    routerSharePct: sharePctOf(routerShare),
    backend: backendText(cell, streams),
  };
  if (!total) return { ...base, sharePct: null, holds: null, text: 'not checked: no response was read' };
  const share = (protocols[asked] || 0) / total;
  const routerHolds = routerShare === null || routerShare >= MIN_SHARE;
  const holds = share >= MIN_SHARE && routerHolds;
  const seen = Object.entries(protocols)
    .map(([p, n]) => `${p} ${pct(n / total, 0)}`)
    .join(', ');
  const client =
    share >= MIN_SHARE
      ? `the client read ${asked} on ${pct(share, 1)} of responses`
      : `the client read ${seen}`;
  const router =
    routerShare === null
      ? ''
      : `, the router received ${cell.protocol} on ${pct(routerShare, 1)} of requests`;
  const text = holds
    ? `${client}${router}: ${cell.protocol} as claimed`
    : `${client}${router}: not the ${cell.protocol} its name claims`;
  return { ...base, sharePct: sharePctOf(share), holds, text };
}

/**
 * On a re-encrypt h2 cell: the version the router spoke to the service, from the streams its
 * backends opened where it counted them, and from the service's ALPN answer.
 */
function backendText(cell, streams) {
  if (cell.termination !== 'reencrypt' || cell.protocol !== 'h2') return null;
  const alpn = cell.serviceAlpn ? `the service answers ALPN with ${cell.serviceAlpn}` : null;
  const h2Share = streamShare(streams, 'sent', 'h2');
  if (h2Share !== null) {
    const [version, share] = h2Share >= 0.5 ? ['h2', h2Share] : ['HTTP/1.1', 1 - h2Share];
    const why = [`${pct(share, 1)} of the router’s streams to it`, alpn].filter(Boolean).join('; ');
    return `router to service: ${version} (${why})`;
  }
  if (!alpn) return 'router to service: not known (the service’s TLS port could not be asked from here)';
  return `router to service: ${cell.serviceAlpn === 'h2' ? 'h2' : 'HTTP/1.1'} (${alpn})`;
}

module.exports = { protocolVerdict, MIN_SHARE };
