'use strict';
// One HTTP(S) request, its answer read whole: the transport under the lab's route client and its
// Kubernetes and Prometheus clients. Node's fetch takes no CA, client certificate or lookup per
// request, which each of them needs.
const http = require('node:http');
const https = require('node:https');

/**
 * Resolves { status, headers, body (Buffer), text(), json() } once the answer is complete.
 * Options: method, headers, body (string or Buffer), ca, cert, key, rejectUnauthorized,
 * servername, agent, lookup, timeoutMs. Rejects when the server cannot be reached, does not answer
 * within timeoutMs, or closes the connection mid-answer (err.midAnswer).
 */
function httpRequest(url, { method = 'GET', headers = {}, body, timeoutMs = 10000, ...tls } = {}) {
  const target = new URL(url);
  const lib = target.protocol === 'https:' ? https : http;
  const sized = body === undefined ? headers : { ...headers, 'Content-Length': Buffer.byteLength(body) };
  const options = { method, headers: sized, timeout: timeoutMs };
  for (const [name, value] of Object.entries(tls)) if (value !== undefined) options[name] = value;
  return new Promise((resolve, reject) => {
    const req = lib.request(target, options, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      // A connection cut mid-answer: an error on the response, or a close without 'end'.
      const cut = (why) =>
        reject(Object.assign(new Error(`the connection closed mid-answer${why}`), { midAnswer: true }));
      res.on('error', (err) => cut(` (${err.message})`));
      res.on('close', () => {
        if (!res.complete) cut('');
      });
      res.on('end', () => {
        const answer = Buffer.concat(chunks);
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: answer,
          text: () => answer.toString('utf8'),
          json: () => JSON.parse(answer.toString('utf8')),
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

module.exports = { httpRequest };
