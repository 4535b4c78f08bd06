'use strict';
// Hostile and malformed clients, a few raw sockets each (node:net, node:tls): what no load generator
// sends on purpose. Each runs at most `durationMs`, closes what it holds, and reports what it saw;
// `expect(summary, durationMs)` says what would be wrong.
const net = require('node:net');
const tls = require('node:tls');

const STATUS_LINE = /HTTP\/1\.[01] (\d{3})/g;

/**
 * One raw connection: plain TCP, or TLS with `tlsOptions` ({ servername } or {} for none).
 * Writes send[0] once connected and send[1] every `everyMs`; gives up at `holdMs`.
 * Resolves { statuses: [..], closedByPeer, ms, error, secured }.
 */
function exchange({ host = '127.0.0.1', port, tlsOptions, send = [], everyMs, holdMs, signal }) {
  return new Promise((resolve) => {
    const begin = Date.now();
    const socket = tlsOptions
      ? tls.connect({ host, port, rejectUnauthorized: false, ...tlsOptions })
      : net.connect({ host, port });
    let data = '';
    let error = null;
    let byUs = false;
    let secured = false;
    let trickle;
    const end = () => {
      byUs = true;
      socket.destroy();
    };
    const hold = setTimeout(end, holdMs);
    signal?.addEventListener('abort', end, { once: true });
    socket.on(tlsOptions ? 'secureConnect' : 'connect', () => {
      secured = Boolean(tlsOptions);
      if (send[0]) socket.write(send[0]);
      if (send[1] && everyMs) trickle = setInterval(() => socket.writable && socket.write(send[1]), everyMs);
    });
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (data.length > 1 << 20) data = data.slice(-4096); // never hoard a flood
    });
    socket.on('error', (err) => (error = err.code || err.message));
    socket.on('close', () => {
      clearTimeout(hold);
      clearInterval(trickle);
      signal?.removeEventListener('abort', end);
      resolve({
        statuses: [...data.matchAll(STATUS_LINE)].map((m) => m[1]),
        closedByPeer: !byUs,
        ms: Date.now() - begin,
        error: byUs ? null : error,
        secured,
      });
    });
  });
}

/** `count` exchanges side by side. */
const many = (count, make) => Promise.all(Array.from({ length: count }, (_, i) => make(i)));

/** What a set of exchanges saw, for the results. */
function summarize(results) {
  const statuses = {};
  const errors = {};
  for (const r of results) {
    for (const s of r.statuses) statuses[s] = (statuses[s] || 0) + 1;
    if (r.error) errors[r.error] = (errors[r.error] || 0) + 1;
  }
  const closed = results.filter((r) => r.closedByPeer).map((r) => r.ms);
  closed.sort((a, b) => a - b);
  return {
    connections: results.length,
    statuses,
    errors,
    closedByPeer: closed.length,
    stillOpenAtEnd: results.length - closed.length,
    closeMsMedian: closed.length ? closed[Math.floor(closed.length / 2)] : null,
    closeMsMax: closed.length ? closed[closed.length - 1] : null,
    tlsSessions: results.filter((r) => r.secured).length,
  };
}

const count = (statuses, test) =>
  Object.entries(statuses)
    .filter(([s]) => test(Number(s)))
    .reduce((a, [, n]) => a + n, 0);
const ok2xx = (s) => count(s.statuses, (n) => n >= 200 && n < 300);

const hostOf = (state, termination) => state.routes.find((r) => r.termination === termination).host;
const request = (host, path = '/api/pages/1k', extra = '') =>
  `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}\r\n`;
const BIG = 'a'.repeat(64 * 1024);
// A TLS record header (handshake, TLS 1.0 record version, 200 bytes) and a ClientHello type byte:
// the start of a handshake whose rest never comes.
const PARTIAL_HELLO = Buffer.from([0x16, 0x03, 0x01, 0x00, 0xc8, 0x01]);

/** A slow client that never finishes: its connections must end by the peer's timeout. */
function slowExpect(timeoutMs, who) {
  return (s, durationMs) => {
    const reasons = [];
    if (ok2xx(s)) reasons.push(`${ok2xx(s)} slow requests were answered 2xx: they were never complete`);
    if (durationMs > timeoutMs + 2000 && s.stillOpenAtEnd) {
      reasons.push(
        `${s.stillOpenAtEnd} slow connections still open after ${durationMs} ms: ${who} did not end them`,
      );
    }
    return reasons;
  };
}

const rejectedExpect = (s) => (ok2xx(s) ? [`${ok2xx(s)} malformed requests were answered 2xx`] : []);

const ATTACKS = [
  {
    name: 'slowloris-router',
    what: '40 connections sending headers one line a second, through the router',
    run: ({ state, durationMs, signal }) =>
      many(40, () =>
        exchange({
          port: state.router.httpPort,
          send: [`GET /api/pages/1k HTTP/1.1\r\nHost: ${hostOf(state, 'http')}\r\n`, 'X-Slow: 1\r\n'],
          everyMs: 1000,
          holdMs: durationMs,
          signal,
        }),
      ),
    expect: slowExpect(10000, "the router's timeout http-request (10 s)"),
  },
  {
    name: 'slowloris-service',
    what: '40 connections sending headers one line a second, straight to data-service-1',
    run: ({ state, durationMs, signal }) =>
      many(40, () =>
        exchange({
          host: state.instances[0].host,
          port: state.instances[0].port,
          send: ['GET /api/pages/1k HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n'],
          everyMs: 1000,
          holdMs: durationMs,
          signal,
        }),
      ),
    expect: slowExpect(10000, "the service's HEADERS_TIMEOUT_MS (10 s)"),
  },
  {
    name: 'slow-body-service',
    what: '20 POSTs sending their body one byte a second, straight to data-service-1',
    run: ({ state, durationMs, signal }) =>
      many(20, () =>
        exchange({
          host: state.instances[0].host,
          port: state.instances[0].port,
          send: [
            'POST /api/records HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{',
            ' ',
          ],
          everyMs: 1000,
          holdMs: durationMs,
          signal,
        }),
      ),
    expect: slowExpect(30000, "the service's REQUEST_TIMEOUT_MS (30 s)"),
  },
  {
    name: 'oversized',
    what: '64 KiB headers and 64 KiB URLs, 10 each, through the router and straight to data-service-1',
    run: ({ state, signal }) => {
      const at = (port, text, host) => exchange({ host, port, send: [text], holdMs: 5000, signal });
      const host = hostOf(state, 'http');
      return Promise.all([
        many(10, () => at(state.router.httpPort, request(host, '/api/pages/1k', `X-Big: ${BIG}\r\n`))),
        many(10, () => at(state.router.httpPort, request(host, `/api/pages/1k?${BIG}`))),
        many(10, () =>
          at(
            state.instances[0].port,
            request('x', '/api/pages/1k', `X-Big: ${BIG}\r\n`),
            state.instances[0].host,
          ),
        ),
        many(10, () =>
          at(state.instances[0].port, request('x', `/api/pages/1k?${BIG}`), state.instances[0].host),
        ),
      ]).then((parts) => parts.flat());
    },
    expect: rejectedExpect,
  },
  {
    name: 'tls-to-plain',
    what: "20 TLS handshakes sent to the router's plain HTTP port",
    run: ({ state, signal }) =>
      many(20, () =>
        exchange({
          port: state.router.httpPort,
          tlsOptions: { servername: hostOf(state, 'edge') },
          send: [request(hostOf(state, 'edge'))],
          holdMs: 5000,
          signal,
        }),
      ),
    expect: (s) => (s.tlsSessions ? [`${s.tlsSessions} TLS sessions were set up on the plain port`] : []),
  },
  {
    name: 'plain-to-tls',
    what: "20 plain HTTP requests sent to the router's TLS port",
    run: ({ state, signal }) =>
      many(20, () =>
        exchange({
          port: state.router.httpsPort,
          send: [request(hostOf(state, 'edge'))],
          holdMs: 8000,
          signal,
        }),
      ),
    expect: rejectedExpect,
  },
  {
    name: 'sni',
    what: 'TLS with the SNI of an unknown host (10), and with no SNI at all (10), then GET',
    run: ({ state, signal }) => {
      const at = (tlsOptions, host) =>
        exchange({
          port: state.router.httpsPort,
          tlsOptions,
          send: [request(host, '/api/pages/1k', 'Connection: close\r\n')],
          holdMs: 5000,
          signal,
        });
      return Promise.all([
        many(10, () => at({ servername: 'unknown.apps.lab.localhost' }, 'unknown.apps.lab.localhost')),
        many(10, () => at({}, hostOf(state, 'edge'))),
      ]).then((parts) => parts.flat());
    },
    // Unknown host: the router's default backend, 503. No SNI: the default certificate, and the
    // Host header picks the edge route, 200.
    expect: (s) => {
      const reasons = [];
      if ((s.statuses['503'] || 0) !== 10)
        reasons.push(`an unknown host got ${JSON.stringify(s.statuses)}, not 10 × 503`);
      if ((s.statuses['200'] || 0) !== 10)
        reasons.push(`a client without SNI was not served (10 × 200 expected)`);
      return reasons;
    },
  },
  {
    name: 'http10-pipelining',
    what: 'HTTP/1.0 requests (10), and 10 requests pipelined in one write on 5 connections, through the router',
    run: ({ state, signal }) => {
      const host = hostOf(state, 'http');
      const port = state.router.httpPort;
      return Promise.all([
        many(10, () =>
          exchange({
            port,
            send: [`GET /api/pages/1k HTTP/1.0\r\nHost: ${host}\r\n\r\n`],
            holdMs: 5000,
            signal,
          }),
        ),
        many(5, () =>
          exchange({
            port,
            send: [request(host).repeat(9) + request(host, '/api/pages/1k', 'Connection: close\r\n')],
            holdMs: 5000,
            signal,
          }),
        ),
      ]).then((parts) => parts.flat());
    },
    expect: (s) =>
      (s.statuses['200'] || 0) !== 60 ? [`expected 60 × 200, got ${JSON.stringify(s.statuses)}`] : [],
  },
  {
    name: 'invalid-flood',
    what: 'invalid requests as fast as 8 clients can send them, through the router',
    run: async ({ state, durationMs, signal }) => {
      const results = [];
      const until = Date.now() + durationMs;
      const garbage = [
        '\x00\x01\x02 NOT HTTP\r\n\r\n',
        'GET / HTTP/9.9\r\n\r\n',
        'GET /\r\n\r\n',
        'BREW / HTCPCP/1.0\r\n\r\n',
      ];
      await many(8, async (i) => {
        for (let n = i; Date.now() < until && !signal?.aborted; n++) {
          results.push(
            // HTTP/0.9 ('GET /') gets an answer and stays open: do not let it slow the flood.
            await exchange({
              port: state.router.httpPort,
              send: [garbage[n % garbage.length]],
              holdMs: 300,
              signal,
            }),
          );
        }
      });
      return results;
    },
    expect: rejectedExpect,
  },
  {
    name: 'abandoned-handshakes',
    what: 'connections to the TLS port left mid-handshake: 50 after a partial ClientHello, 50 after nothing',
    run: ({ state, durationMs, signal }) =>
      Promise.all([
        many(50, () =>
          exchange({ port: state.router.httpsPort, send: [PARTIAL_HELLO], holdMs: durationMs, signal }),
        ),
        many(50, () => exchange({ port: state.router.httpsPort, holdMs: durationMs, signal })),
      ]).then((parts) => parts.flat()),
    expect: () => [],
  },
];

module.exports = { ATTACKS, exchange, summarize };
