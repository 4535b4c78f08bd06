'use strict';
// A cell's HTTP version claim against the protocol of the responses its client read, and on
// re-encrypt h2 the version the router spoke to the service.
const { protocolVerdict } = require('../../lib/results-model/protocol-evidence');

const cell = (name, protocols, extra = {}) => {
  const [termination, , connection] = name.split(':');
  const protocol = termination === 'http' ? null : name.endsWith(':h2') ? 'h2' : 'h1';
  return { name, termination, connection, protocol, protocols, ...extra };
};

test('http cells have no claim; a TLS cell holds at 99 % of its version or more', () => {
  expect(protocolVerdict(cell('http:1k:keepalive', { 'HTTP/1.1': 10 }))).toBeNull();
  expect(protocolVerdict(cell('edge:1k:keepalive:h2', { 'HTTP/2.0': 990, 'HTTP/1.1': 10 }))).toMatchObject({
    claim: 'h2',
    sharePct: 99,
    holds: true,
    text: 'the client read HTTP/2.0 on 99.0 % of responses: h2 as claimed',
    backend: null,
  });
  expect(protocolVerdict(cell('edge:1k:keepalive', { 'HTTP/2.0': 500, 'HTTP/1.1': 500 }))).toMatchObject({
    holds: false,
    text: 'the client read HTTP/2.0 50 %, HTTP/1.1 50 %: not the h1 its name claims',
  });
  expect(protocolVerdict(cell('edge:1k:keepalive', {}))).toMatchObject({
    holds: null,
    text: 'not checked: no response was read',
  });
});

test("re-encrypt h2 says which version the router spoke to the service, from the service's ALPN answer", () => {
  const h2 = (serviceAlpn) =>
    protocolVerdict(cell('reencrypt:1k:keepalive:h2', { 'HTTP/2.0': 5 }, { serviceAlpn }));
  expect(h2('http/1.1').backend).toBe('router to service: HTTP/1.1 (the service answers ALPN with http/1.1)');
  expect(h2('h2').backend).toBe('router to service: h2 (the service answers ALPN with h2)');
  expect(h2(null).backend).toBe(
    'router to service: not known (the service’s TLS port could not be asked from here)',
  );
  expect(protocolVerdict(cell('reencrypt:1k:keepalive', { 'HTTP/1.1': 5 })).backend).toBeNull();
});

test("the router's own count of requests by version is the second witness: both must agree", () => {
  const counted = (received, sent = { h1: 0, h2: 0 }) => ({
    router: { counters: { streams: { received, sent } } },
  });
  const h2 = { 'HTTP/2.0': 1000 };
  expect(protocolVerdict(cell('edge:1k:keepalive:h2', h2, counted({ h1: 0, h2: 1000 })))).toMatchObject({
    sharePct: 100,
    routerSharePct: 100,
    holds: true,
    text: 'the client read HTTP/2.0 on 100.0 % of responses, the router received h2 on 100.0 % of requests: h2 as claimed',
  });
  // The client saw h2 but the router counted HTTP/1.1 requests: not as claimed.
  expect(protocolVerdict(cell('edge:1k:keepalive:h2', h2, counted({ h1: 900, h2: 100 })))).toMatchObject({
    routerSharePct: 10,
    holds: false,
    text: 'the client read HTTP/2.0 on 100.0 % of responses, the router received h2 on 10.0 % of requests: not the h2 its name claims',
  });
  // Passthrough: the router parses no HTTP and counts nothing; the client alone decides.
  const passthrough = protocolVerdict(
    cell('passthrough:1k:keepalive', { 'HTTP/1.1': 9 }, counted({ h1: 0, h2: 0 })),
  );
  expect(passthrough).toMatchObject({ routerSharePct: null, holds: true });
  // Re-encrypt h2: the streams the router opened to the service say which version it spoke.
  const reencrypt = cell('reencrypt:1k:keepalive:h2', h2, {
    ...counted({ h1: 0, h2: 1000 }, { h1: 1000, h2: 0 }),
    serviceAlpn: 'http/1.1',
  });
  expect(protocolVerdict(reencrypt).backend).toBe(
    'router to service: HTTP/1.1 (100.0 % of the router’s streams to it; the service answers ALPN with http/1.1)',
  );
});
