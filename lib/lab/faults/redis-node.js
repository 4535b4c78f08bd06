'use strict';
// One of the lab's redis-server processes killed and started again, for fault scenarios: SIGKILL
// (no shutdown, no final AOF write: what a crash or an OOM kill does), then a new process on the
// same port and data directory, which reads its append-only file back (LAB_REDIS_FSYNC).
const { setTimeout: sleep } = require('node:timers/promises');
const { isAlive } = require('../../core/processes');
const { readLabState, writeLabState } = require('../common/state');
const { listRecords, processState } = require('../common/pids');
const { startRedis } = require('../common/stack');

function redisNode(labDir, index) {
  const state = readLabState(labDir);
  if (!state) throw new Error(`no lab is running in ${labDir}: run 'npm run lab:up' first`);
  const port = state.redis.ports[index];
  if (port === undefined)
    throw new Error(`the lab has no redis-${index + 1} (it runs ${state.redis.ports.length})`);
  return { state, port, name: `redis-${index + 1}` };
}

/** SIGKILLs redis-<index+1> and waits until it is gone. Resolves { pid, port }. */
async function killRedisNode(labDir, index = 0) {
  const { port, name } = redisNode(labDir, index);
  const record = listRecords(labDir).find((r) => r.name === name);
  if (!record || processState(record) !== 'running')
    throw new Error(`${name} is not running: nothing to kill`);
  process.kill(record.pid, 'SIGKILL');
  while (isAlive(record.pid)) await sleep(5);
  return { pid: record.pid, port };
}

/**
 * Starts redis-<index+1> again on its port and data directory with the lab's fsync policy, waits
 * until it answers PING, and records its new pid in lab.json. Resolves { pid, port, ms }.
 */
async function restartRedisNode(labDir, index = 0, { signal } = {}) {
  const { state, port } = redisNode(labDir, index);
  const begin = Date.now();
  const { records } = await startRedis(labDir, {
    mode: state.redis.mode,
    ports: [port],
    cpus: state.redis.cpus,
    fsync: state.redis.fsync ?? null,
    first: index + 1,
    form: false,
    signal,
    // Where lab:up started it: loopback, or the real router's pod network.
    network: { host: state.redis.host ?? '127.0.0.1', netns: state.redis.netns ?? null },
  });
  state.redis.pids[index] = records[0].pid;
  writeLabState(labDir, state);
  return { pid: records[0].pid, port, ms: Date.now() - begin };
}

/** Is redis-<index+1> running? */
function redisNodeRunning(labDir, index = 0) {
  const record = listRecords(labDir).find((r) => r.name === `redis-${index + 1}`);
  return Boolean(record) && processState(record) === 'running';
}

module.exports = { killRedisNode, restartRedisNode, redisNodeRunning };
