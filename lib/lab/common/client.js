'use strict';
// HTTP(S) requests to the lab's routes from Node: connect to 127.0.0.1 with the route's host in
// the Host header and the TLS SNI, as a client resolving it to the router would (*.apps.lab.localhost
// does not resolve through every system resolver).
const http = require('node:http');
const https = require('node:https');
const { httpRequest } = require('../../core/http-request');

const loopback = (_host, options, callback) => {
  if (options && options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

/**
 * One request to 127.0.0.1 with the URL's host as Host and SNI: resolves { status, headers, body
 * (Buffer), text(), json() }. Options as httpRequest's (lib/core/http-request.js): method,
 * headers, body, ca, agent, timeoutMs, servername (override the SNI), rejectUnauthorized.
 */
function request(url, options = {}) {
  const headers = { host: new URL(url).host, ...options.headers };
  return httpRequest(url, { ...options, headers, lookup: loopback });
}

/** An instance's URL for `urlPath`: its plain port, or its TLS port with `tls`. */
const instanceUrl = (instance, urlPath, { tls = false } = {}) =>
  `${tls ? 'https' : 'http'}://${instance.host || '127.0.0.1'}:${tls ? instance.tlsPort : instance.port}${urlPath}`;

/** A keep-alive agent for many requests to the lab (https when `ca` is given). */
function keepAliveAgent({ secure = false, ca, maxSockets = 8 } = {}) {
  const Agent = secure ? https.Agent : http.Agent;
  return new Agent({ keepAlive: true, maxSockets, ca, lookup: loopback });
}

module.exports = { request, instanceUrl, keepAliveAgent, loopback };
