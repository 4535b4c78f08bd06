'use strict';
// Reaches a loopback port of the host from inside a network namespace (./netns.js). A unix
// socket lives in the file system, which namespaces share: inside, a child process listens on
// 127.0.0.1:<port> and pipes each connection to the unix socket; outside, this process pipes
// each unix connection to 127.0.0.1:<port>. One connection in is one connection on every hop,
// so close mode stays close mode and the client's ephemeral ports are spent inside the
// namespace. Inside, the client closes first, as it does against a router that answers
// `Connection: close`: the bridge's own hop would otherwise add a delay in which the bridge
// closes first, and the client's port would skip TIME_WAIT.
//
// Run as a script (the inside half): node port-bridge.js <port> <unix socket path>
const fs = require('node:fs');
const net = require('node:net');
const { spawn } = require('node:child_process');
const { once } = require('node:events');
const { inNetns } = require('./netns');

const READY = 'bridge listening';

/** Pipes `a` and `b` both ways; an error or a reset on either side ends both. */
function splice(a, b) {
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end);
  b.on('error', end);
}

/** How long a client may keep its side open once the far end has closed. */
const CLIENT_CLOSE_MS = 1000;

/**
 * A server whose every connection is piped to a new connection to `connectTo`. `clientClosesFirst`:
 * when the far end closes, the inbound side is ended only after the client has closed its own,
 * or CLIENT_CLOSE_MS later.
 */
function forward(connectTo, { clientClosesFirst = false } = {}) {
  return net.createServer({ allowHalfOpen: clientClosesFirst }, (inbound) => {
    const outbound = net.connect(connectTo);
    if (!clientClosesFirst) {
      splice(inbound, outbound);
      return;
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound, { end: false });
    const end = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', end);
    outbound.on('error', end);
    inbound.on('end', () => inbound.end());
    outbound.on('end', () => setTimeout(() => inbound.end(), CLIENT_CLOSE_MS).unref());
  });
}

/**
 * Makes 127.0.0.1:`port` inside namespace `netns` reach 127.0.0.1:`port` of the host, through
 * `socketPath`. Resolves { close() } once both halves listen.
 */
async function bridgeIntoNetns({ netns, port, socketPath }) {
  fs.rmSync(socketPath, { force: true });
  const outside = forward({ host: '127.0.0.1', port });
  outside.listen(socketPath);
  await once(outside, 'listening');
  const [command, argv] = inNetns(netns, [process.execPath, [__filename, String(port), socketPath]]);
  const inside = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  const close = async () => {
    if (inside.exitCode === null && inside.signalCode === null) {
      inside.kill('SIGTERM');
      await once(inside, 'exit');
    }
    outside.close();
    fs.rmSync(socketPath, { force: true });
  };
  let output = '';
  try {
    await new Promise((resolve, reject) => {
      const onData = (chunk) => {
        output += chunk;
        if (output.includes(READY)) resolve();
      };
      inside.stdout.on('data', onData);
      inside.stderr.on('data', (chunk) => (output += chunk));
      inside.once('error', reject);
      inside.once('exit', (code) => reject(new Error(`exited (${code}): ${output.trim()}`)));
    });
  } catch (err) {
    await close();
    throw new Error(`the port bridge into namespace ${netns} did not start: ${err.message}`, { cause: err });
  }
  return { close };
}

if (require.main === module) {
  const [port, socketPath] = process.argv.slice(2);
  forward(socketPath, { clientClosesFirst: true })
    .listen(Number(port), '127.0.0.1', () => console.log(READY))
    .on('error', (err) => {
      console.error(err.message);
      process.exit(1);
    });
  process.on('SIGTERM', () => process.exit(0));
}

module.exports = { bridgeIntoNetns };
