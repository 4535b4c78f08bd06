'use strict';
// Reaches a loopback port of the host from inside a network namespace (./netns.js) through a unix
// socket, which namespaces share. Run as a script, it is the inside half:
//   node port-bridge.js <port> <unix socket path>
const fs = require('node:fs');
const net = require('node:net');
const { spawn } = require('node:child_process');
const { once } = require('node:events');
const { inNetns } = require('./netns');

const READY = 'bridge listening';

/** How long a client may keep its side open once the far end has closed. */
const CLIENT_CLOSE_MS = 1000;

/**
 * A server whose every connection is piped to a new connection to `connectTo` (net.connect
 * options), each direction ended when its sender ends it (half-close kept, as TCP has it).
 * `clientClosesFirst`: once the far end is done, the inbound side is ended only after the
 * client's own FIN, or CLIENT_CLOSE_MS later.
 */
function forward(connectTo, { clientClosesFirst = false } = {}) {
  return net.createServer({ allowHalfOpen: true }, (inbound) => {
    const outbound = net.connect({ ...connectTo, allowHalfOpen: true });
    inbound.pipe(outbound);
    outbound.pipe(inbound, { end: !clientClosesFirst });
    const destroy = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', destroy);
    outbound.on('error', destroy);
    if (!clientClosesFirst) return;
    let clientDone = false;
    let farDone = false;
    inbound.on('end', () => {
      clientDone = true;
      if (farDone) inbound.end();
    });
    outbound.on('end', () => {
      farDone = true;
      if (clientDone) inbound.end();
      else setTimeout(() => inbound.end(), CLIENT_CLOSE_MS).unref();
    });
  });
}

/**
 * One connection in is one connection on every hop (inside: a child listens on 127.0.0.1:<port>
 * and pipes to the socket; outside: this process pipes to 127.0.0.1:<port>), so close mode stays
 * close mode and the client's ephemeral ports are spent inside. The client is left to close
 * first, as load tools do, so that the TIME_WAIT, and the port it holds, is the client's.
 *
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
  forward({ path: socketPath }, { clientClosesFirst: true })
    .listen(Number(port), '127.0.0.1', () => console.log(READY))
    .on('error', (err) => {
      console.error(err.message);
      process.exit(1);
    });
  process.on('SIGTERM', () => process.exit(0));
}

module.exports = { bridgeIntoNetns };
