'use strict';
// Port helpers for tests and the lab: find free ports, check and wait for listeners.
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const { setTimeout: sleep } = require('node:timers/promises');
const { claim, release } = require('./port-reservations');

// Ports are handed out below the kernel's ephemeral range, where no outgoing connection takes one
// as its source port between the pick and the listen, and above the defaults of Kubernetes
// (10250–10259) and Envoy (15000–15090). port-reservations.js keeps two callers from one port.
const LISTEN_LOW = 20000;

/** The ports freePort picks from: below the ephemeral range when that leaves room, else 20000–65535. */
function listenRange(rangeText = readEphemeralRange()) {
  const ephemeralLow = Number(String(rangeText).trim().split(/\s+/)[0]);
  const high = ephemeralLow - 1 - LISTEN_LOW >= 2000 ? ephemeralLow - 1 : 65535;
  return { low: LISTEN_LOW, high };
}

function readEphemeralRange() {
  try {
    return fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
  } catch {
    return '32768 60999'; // Linux's default, where /proc is not there to read
  }
}

/** Whether a listener could bind host:port now. */
function canListen(port, host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (err) => (err.code === 'EADDRINUSE' ? resolve(false) : reject(err)));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port nothing listens on and no other caller of freePort holds (see port-reservations). With
 * `pairedOffset`, port + pairedOffset is free and held too (Redis Cluster's bus port).
 */
async function freePort(host = '127.0.0.1', { pairedOffset = 0 } = {}) {
  const { low, high } = listenRange();
  for (let attempt = 0; attempt < 1000; attempt++) {
    const port = crypto.randomInt(low, high - pairedOffset + 1);
    const wanted = pairedOffset ? [port, port + pairedOffset] : [port];
    const claimed = wanted.filter(claim);
    if (claimed.length < wanted.length) {
      claimed.forEach(release);
      continue;
    }
    if ((await Promise.all(wanted.map((p) => canListen(p, host)))).every(Boolean)) return port;
  }
  throw new Error(`no free port in ${low}–${high} on ${host} after 1000 tries`);
}

/** Several distinct free ports. */
async function freePorts(count, host = '127.0.0.1', options = {}) {
  const ports = [];
  while (ports.length < count) ports.push(await freePort(host, options));
  return ports;
}

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
  listenRange,
  waitForPort,
  waitForPortClosed,
};
