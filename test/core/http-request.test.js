'use strict';
// The one HTTP request under the lab's clients, against a real Node server on a free port: a
// body sent and read whole, a timeout named, and a connection cut mid-answer refused.
const http = require('node:http');
const { httpRequest } = require('../../lib/core/http-request');

let server;
let base;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/echo') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () =>
        res.end(JSON.stringify({ method: req.method, length: req.headers['content-length'], body })),
      );
    } else if (req.url === '/cut') {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('only part');
      setTimeout(() => res.destroy(), 20);
    }
    // '/silent' never answers.
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('a body is sent with its length and the answer is read whole', async () => {
  const res = await httpRequest(`${base}/echo`, { method: 'POST', body: 'héllo' });
  expect(res.status).toBe(200);
  expect(res.json()).toEqual({ method: 'POST', length: '6', body: 'héllo' });
});

test('no answer within the timeout is an error naming the request', async () => {
  await expect(httpRequest(`${base}/silent`, { timeoutMs: 200 })).rejects.toThrow(
    `GET ${base}/silent timed out after 200 ms`,
  );
});

test('a connection cut mid-answer is refused, not taken for the whole answer', async () => {
  await expect(httpRequest(`${base}/cut`)).rejects.toMatchObject({ midAnswer: true });
});

test('a server that is not there is an error', async () => {
  await expect(httpRequest('http://127.0.0.1:1/')).rejects.toThrow(/ECONNREFUSED/);
});
