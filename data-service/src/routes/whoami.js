'use strict';
// Which instance answered and what the connection looked like from here: lets the lab show
// where TLS ended (tls, tlsServername), what the router added (X-Forwarded-*, Forwarded) and which
// X-SSL* client-certificate headers arrived (the router strips a client's own).
const FORWARDED_HEADERS = [
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-port',
  'x-forwarded-proto',
  'forwarded',
];

// The listeners bind the dual-stack wildcard, so IPv4 peers arrive as ::ffff:a.b.c.d; report them
// as the IPv4 address they are.
const plainAddress = (address) =>
  typeof address === 'string' && address.startsWith('::ffff:') && address.includes('.')
    ? address.slice(7)
    : address;

function whoamiHandler({ instanceName }) {
  return (req, res) => {
    const socket = req.socket;
    const forwarded = {};
    for (const name of FORWARDED_HEADERS) {
      if (req.headers[name] !== undefined) forwarded[name] = req.headers[name];
    }
    const sslHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (name.startsWith('x-ssl')) sslHeaders[name] = value;
    }
    const body = JSON.stringify({
      instance: instanceName,
      tls: socket.encrypted === true,
      // On a TLS socket Node sets servername to the SNI the client sent (false without SNI).
      tlsServername: typeof socket.servername === 'string' ? socket.servername : null,
      httpVersion: req.httpVersion,
      peer: { address: plainAddress(socket.remoteAddress), port: socket.remotePort },
      forwarded,
      sslHeaders,
    });
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  };
}

module.exports = { whoamiHandler, FORWARDED_HEADERS };
