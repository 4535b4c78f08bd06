'use strict';
// Real redis-server processes for the tests and the lab: arguments, readiness, and forming a
// Redis Cluster of 3 primaries + 3 replicas (the bank's topology) with redis-cli.
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { setTimeout: pause } = require('node:timers/promises');
const fs = require('node:fs');
const path = require('node:path');
const { requireTool } = require('./tools');
const { freePorts } = require('./ports');
const { startChild } = require('./processes');

const run = promisify(execFile);

/** A Redis Cluster node also listens on its bus port: the client port + this. */
const REDIS_BUS_OFFSET = 10000;

/**
 * Arguments for a loopback-only redis-server. Without `appendfsync` it keeps nothing on disk
 * (benchmark and test data); with it (always|everysec|no) it keeps an append-only file in `dir`
 * with that fsync policy, and a restart on the same `dir` reads it back.
 */
function redisServerArgs({ port, dir, password, cluster = false, bind = '127.0.0.1', appendfsync = null }) {
  const args = [
    '--port',
    String(port),
    '--bind',
    bind,
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    appendfsync ? 'yes' : 'no',
    ...(appendfsync ? ['--appendfsync', appendfsync] : []),
    '--daemonize',
    'no',
    '--protected-mode',
    'no',
    '--logfile',
    '',
    // One replica per primary: nothing to wait for before a full sync (the default waits 5 s for
    // more replicas), so a (re)joining replica is in sync at once. redis/config/ says the same.
    '--repl-diskless-sync-delay',
    '0',
  ];
  if (password) args.push('--requirepass', password, '--masterauth', password);
  if (cluster) {
    args.push(
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `nodes-${port}.conf`,
      '--cluster-node-timeout',
      '2000',
    );
  }
  return args;
}

/** Runs redis-cli against host:port (default loopback); an abort of `signal` kills it and rejects. */
async function redisCliWith(port, password, args, { signal, host = '127.0.0.1' } = {}) {
  signal?.throwIfAborted();
  const auth = password ? ['-a', password, '--no-auth-warning'] : [];
  try {
    const { stdout } = await run(
      requireTool('redis-cli'),
      ['-h', host, '-p', String(port), ...auth, ...args],
      { timeout: 30000, signal },
    );
    return stdout.trim();
  } catch (err) {
    signal?.throwIfAborted();
    throw err;
  }
}

async function redisCli(port, password, ...args) {
  return redisCliWith(port, password, args);
}

/**
 * Waits until redis-server on `port` of `host` answers PING. An abort of `signal` (optional)
 * rejects at once with an AbortError.
 */
async function waitForRedis(port, { password, timeoutMs = 10000, signal, host } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      last = await redisCliWith(port, password, ['ping'], { signal, host });
      if (last === 'PONG') return;
    } catch (err) {
      if (err.name === 'AbortError') throw err;
      last = err.message;
    }
    await pause(50, undefined, { signal });
  }
  throw new Error(`redis-server on port ${port} did not answer PING within ${timeoutMs} ms: ${last}`);
}

const SLOTS = 16384;

/** Redis Cluster's key slot: CRC16 (XMODEM) of the key, modulo 16384 (no hash tags here). */
function keySlot(key) {
  let crc = 0;
  for (const byte of Buffer.from(key)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % SLOTS;
}

/** A key whose slot is in one of `ranges` ([[from, to]]), for writing to one primary directly. */
function keyInSlots(ranges) {
  for (let i = 0; ; i++) {
    const key = `router-lab:replication-probe:${i}`;
    const slot = keySlot(key);
    if (ranges.some(([from, to]) => slot >= from && slot <= to)) return key;
  }
}

/** The slot ranges a node serves, from its own line of CLUSTER NODES. */
function ownSlots(clusterNodes) {
  const me = clusterNodes.split('\n').find((l) => l.includes('myself')) || '';
  return me
    .trim()
    .split(/\s+/)
    .slice(8)
    .filter((s) => /^\d+(-\d+)?$/.test(s))
    .map((s) => s.split('-').map(Number))
    .map(([from, to = from]) => [from, to]);
}

/**
 * Whether the primary on `port` has a replica that acknowledges writes: WAIT counts it for a write
 * of its own (INFO says a replica is online before it acknowledges, and a WAIT with no write of
 * its own is satisfied at once).
 */
async function replicaAcknowledges(cli, port) {
  const key = keyInSlots(ownSlots(await cli(port, 'cluster', 'nodes')));
  await cli(port, 'set', key, String(Date.now()));
  const acknowledged = (await cli(port, 'wait', '1', '200')) === '1';
  await cli(port, 'del', key); // a formed cluster holds no data of the lab's own
  return acknowledged;
}

/**
 * Forms a cluster of 3 primaries + 3 replicas on `ports` of `host` and waits until it is healthy.
 * An abort of `signal` (optional) kills a running redis-cli and rejects at once with an AbortError.
 */
async function formCluster(ports, { password, timeoutMs = 30000, signal, host = '127.0.0.1' } = {}) {
  if (ports.length !== 6) throw new Error(`a lab cluster needs 6 nodes, got ${ports.length}`);
  const nodes = ports.map((p) => `${host}:${p}`);
  const cli = (port, ...args) => redisCliWith(port, password, args, { signal, host });
  await cli(ports[0], '--cluster', 'create', ...nodes, '--cluster-replicas', '1', '--cluster-yes');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const infos = await Promise.all(ports.map((p) => cli(p, 'cluster', 'info')));
    const replication = await Promise.all(ports.map((p) => cli(p, 'info', 'replication')));
    const ok = infos.every((i) => /cluster_state:ok/.test(i));
    const primaries = ports.filter((_, i) => /role:master/.test(replication[i]));
    const online = replication.filter((r) => /role:master/.test(r) && /slave0:.*state=online/.test(r)).length;
    if (ok && online === 3 && primaries.length === 3) {
      const acked = await Promise.all(primaries.map((p) => replicaAcknowledges(cli, p)));
      if (acked.every(Boolean)) return;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the Redis cluster on ports ${ports.join(',')} did not become healthy in ${timeoutMs} ms`,
      );
    }
    await pause(200, undefined, { signal });
  }
}

/**
 * For tests: starts redis-server (or a 6-node cluster) on free ports in `dir`.
 * Returns { ports, url, clusterNodes, stop() }.
 */
async function startTestRedis({ dir, password, cluster = false } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  const ports = cluster
    ? await freePorts(6, '127.0.0.1', { pairedOffset: REDIS_BUS_OFFSET })
    : await freePorts(1);
  const server = requireTool('redis-server');
  const children = ports.map((port) => {
    const nodeDir = path.join(dir, String(port));
    fs.mkdirSync(nodeDir, { recursive: true });
    return startChild(server, redisServerArgs({ port, dir: nodeDir, password, cluster }));
  });
  const stop = () => Promise.all(children.map((c) => c.stop()));
  try {
    await Promise.all(ports.map((port) => waitForRedis(port, { password })));
    if (cluster) await formCluster(ports, { password });
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    ports,
    port: ports[0],
    url: `redis://127.0.0.1:${ports[0]}`,
    clusterNodes: ports.map((p) => `127.0.0.1:${p}`).join(','),
    children,
    stop,
  };
}

module.exports = {
  REDIS_BUS_OFFSET,
  redisServerArgs,
  redisCli,
  redisCliWith,
  waitForRedis,
  formCluster,
  startTestRedis,
  keySlot,
  ownSlots,
};
