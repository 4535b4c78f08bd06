'use strict';
// Network namespaces of the lab's own and the port bridge into them, against the real kernel
// (root only: elsewhere each test says why it cannot run).
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { once } = require('node:events');
const { netnsSupport, createNetns, removeStaleNetns, readInNetns, inNetns } = require('../../lib/core/netns');
const { bridgeIntoNetns } = require('../../lib/core/port-bridge');
const { freePort } = require('../../lib/core/ports');

const run = promisify(execFile);
const support = netnsSupport();
const rootOnly = support.ok ? test : test.skip;
const listNetns = async () => (await run('ip', ['netns', 'list'])).stdout;

if (!support.ok) test.todo(`network namespaces: not run here (${support.why})`);

rootOnly('a namespace has its own sysctls, and is gone after remove()', async () => {
  const name = `rlab-test-${process.pid}`;
  const ns = await createNetns(name, { 'net.ipv4.ip_local_port_range': '50000 50099' });
  try {
    expect((await readInNetns(name, '/proc/sys/net/ipv4/ip_local_port_range')).trim()).toBe('50000\t50099');
    expect(await listNetns()).toContain(name);
  } finally {
    await ns.remove();
  }
  expect(await listNetns()).not.toContain(name);
  await ns.remove(); // twice is fine
});

rootOnly("stale namespaces (their run's process gone) are removed, a live run's kept", async () => {
  const dead = await createNetns('rlab-stale-999999999');
  const live = await createNetns(`rlab-stale-${process.pid}`);
  try {
    expect(await removeStaleNetns('rlab-stale-')).toEqual(['rlab-stale-999999999']);
    const left = await listNetns();
    expect(left).not.toContain('rlab-stale-999999999');
    expect(left).toContain(`rlab-stale-${process.pid}`);
  } finally {
    await dead.remove();
    await live.remove();
  }
});

rootOnly('the bridge carries a connection from inside the namespace to a host port, both ways', async () => {
  const port = await freePort();
  const server = net.createServer((socket) => socket.on('data', (d) => socket.end(`echo:${d}`)));
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const name = `rlab-bridge-${process.pid}`;
  const ns = await createNetns(name);
  const bridge = await bridgeIntoNetns({
    netns: name,
    port,
    socketPath: path.join(os.tmpdir(), `${name}.sock`),
  });
  try {
    // A client inside the namespace: its 127.0.0.1 is the namespace's own loopback.
    const client = `const s=require('net').connect(${port},'127.0.0.1',()=>s.end('hi'));let o='';s.on('data',d=>o+=d);s.on('close',()=>console.log(o))`;
    const [command, argv] = inNetns(name, [process.execPath, ['-e', client]]);
    expect((await run(command, argv)).stdout.trim()).toBe('echo:hi');
  } finally {
    await bridge.close();
    await ns.remove();
    server.close();
  }
});
