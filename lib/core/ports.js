'use strict';
// Port helpers for tests and the lab: find free ports, check and wait for listeners.
const net = require('node:net');
const { setTimeout: sleep } = require('node:timers/promises');

/** A TCP port that was free a moment ago (the kernel picked it). */
function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Several distinct free ports. */
async function freePorts(count, host = '127.0.0.1') {
  const ports = new Set();
  while (ports.size < count) ports.add(await freePort(host));
  return [...ports];
}

/** True when something accepts TCP connections on host:port. */
/**
 * One TCP connection to host:port, closed at once: resolves null when it connected, else why not
 * ('connection refused', 'no answer within N s', or the error's message).
 */
function connectProblem(port, host = '127.0.0.1', timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (problem) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs / 1000} s`));
    socket.once('connect', () => done(null));
    socket.once('error', (err) => done(err.code === 'ECONNREFUSED' ? 'connection refused' : err.message));
  });
}

/** Whether host:port accepts connections. */
async function isListening(port, host = '127.0.0.1', timeoutMs = 500) {
  return (await connectProblem(port, host, timeoutMs)) === null;
}

/** Waits until host:port accepts connections; throws after timeoutMs. */
async function waitForPort(port, { host = '127.0.0.1', timeoutMs = 10000, what } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isListening(port, host)) return;
    await sleep(50);
  }
  throw new Error(`${what || 'listener'} on ${host}:${port} did not come up within ${timeoutMs} ms`);
}

/** Waits until nothing accepts connections on host:port any more. */
async function waitForPortClosed(port, { host = '127.0.0.1', timeoutMs = 10000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await isListening(port, host))) return;
    await sleep(50);
  }
  throw new Error(`${host}:${port} is still accepting connections after ${timeoutMs} ms`);
}

module.exports = {
  connectProblem,
  freePort,
  freePorts,
  isListening,
  waitForPort,
  waitForPortClosed,
};
