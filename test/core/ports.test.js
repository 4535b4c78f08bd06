'use strict';
// Free ports against the real kernel and file system: below the ephemeral range, never the same
// port to two processes, a reservation taken over only once it has expired.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { once } = require('node:events');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { freePort, listenRange } = require('../../lib/core/ports');
const { claim, RESERVATIONS, RESERVATION_MS } = require('../../lib/core/port-reservations');

const run = promisify(execFile);
const ephemeralLow = () =>
  Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

test('a free port lies below the ephemeral range, where no outgoing connection takes it, and can be listened on', async () => {
  const { low, high } = listenRange();
  if (high < ephemeralLow()) expect(high).toBe(ephemeralLow() - 1);
  const port = await freePort();
  expect(port).toBeGreaterThanOrEqual(low);
  expect(port).toBeLessThanOrEqual(high);
  const server = net.createServer().listen(port, '127.0.0.1');
  await once(server, 'listening');
  server.close();
});

test('two processes picking 300 ports each at once never get the same port', async () => {
  // Picked at random from ~12,700 ports, two sets of 300 would share some without the reservations.
  const pick = `require('./lib/core/ports').freePorts(300).then((p) => console.log(JSON.stringify(p)))`;
  const cwd = path.join(__dirname, '../..');
  const [a, b] = await Promise.all([1, 2].map(() => run(process.execPath, ['-e', pick], { cwd })));
  const first = new Set(JSON.parse(a.stdout));
  const second = JSON.parse(b.stdout);
  expect(first.size).toBe(300);
  expect(new Set(second).size).toBe(300);
  expect(second.filter((port) => first.has(port))).toEqual([]);
});

test('a Redis Cluster port comes with its bus port (+10000) held too', async () => {
  const port = await freePort('127.0.0.1', { pairedOffset: 10000 });
  expect(claim(port)).toBe(false);
  expect(claim(port + 10000)).toBe(false);
});

test('a reservation is held until it expires, then the next caller takes it over', async () => {
  const port = await freePort();
  expect(claim(port)).toBe(false);
  const old = (Date.now() - RESERVATION_MS - 1000) / 1000;
  fs.utimesSync(path.join(RESERVATIONS, String(port)), old, old);
  expect(claim(port)).toBe(true);
  expect(claim(port)).toBe(false);
});
