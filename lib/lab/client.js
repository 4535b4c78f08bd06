'use strict';
// HTTP(S) requests to the lab's routes from Node: connect to 127.0.0.1 with the route's host in
// the Host header and the TLS SNI, as a client resolving it to the router would (*.apps.lab.localhost
// does not resolve through every system resolver).
const http = require('node:http');
const https = require('node:https');

const loopback = (_host, options, callback) => {
  if (options && options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

/**
 * One request: resolves with { status, headers, body (Buffer), json() }. Options: method, headers,
 * body (string or Buffer), ca (PEM string or Buffer, for https), agent, timeoutMs, servername (override the SNI),
 * rejectUnauthorized.
 */
function request(
  url,
  { method = 'GET', headers = {}, body, ca, agent, timeoutMs = 10000, servername, rejectUnauthorized } = {},
) {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const lib = secure ? https : http;
  const options = {
    method,
    host: target.hostname,
    port: target.port || (secure ? 443 : 80),
    path: `${target.pathname}${target.search}`,
    headers: { host: target.host, ...headers },
    lookup: loopback,
    timeout: timeoutMs,
  };
  if (agent !== undefined) options.agent = agent;
  if (secure) {
    if (ca) options.ca = ca;
    if (servername !== undefined) options.servername = servername;
    if (rejectUnauthorized !== undefined) options.rejectUnauthorized = rejectUnauthorized;
  }
  return new Promise((resolve, reject) => {
    const req = lib.request(options, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body,
          socket: req.socket,
          json: () => JSON.parse(body.toString('utf8')),
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A keep-alive agent for many requests to the lab (https when `ca` is given). */
function keepAliveAgent({ secure = false, ca, maxSockets = 8 } = {}) {
  const Agent = secure ? https.Agent : http.Agent;
  return new Agent({ keepAlive: true, maxSockets, ca, lookup: loopback });
}

module.exports = { request, keepAliveAgent, loopback };
