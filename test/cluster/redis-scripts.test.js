'use strict';
// redis/config as the pods run it, on real redis-server processes: start-redis.sh with the committed
// redis-cluster.conf (paths in a temporary directory), then form-cluster.sh forms 3 primaries + 3
// replicas with AUTH, and a second run only checks.
const fs = require('node:fs');
const os = require('node:os');
const net = require('node:net');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');
const { requireTool } = require('../../lib/core/tools');
const { freePort } = require('../../lib/core/ports');
const { startChild } = require('../../lib/core/processes');
const { redisCli, waitForRedis } = require('../../lib/core/redis-server');

const CONFIG = path.join(ROOT, 'redis/config');
const password = crypto.randomBytes(16).toString('hex');
let dir;
const nodes = [];

/** A free port whose cluster bus port (+10000) is free too. */
async function clusterPort() {
  for (;;) {
    const port = await freePort();
    if (port + 10000 > 65535) continue;
    const busFree = await new Promise((resolve) => {
      const s = net.createServer().once('error', () => resolve(false));
      s.listen(port + 10000, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (busFree) return port;
  }
}

/** The committed cluster config with the pod's paths and port moved for this machine. */
function localConfig(port, nodeDir, runDir) {
  const conf = fs
    .readFileSync(path.join(CONFIG, 'redis-cluster.conf'), 'utf8')
    .replace(/^port 6379$/m, `port ${port}`)
    .replace(/^bind 0\.0\.0\.0$/m, 'bind 127.0.0.1')
    .replace(/^dir \/data$/m, `dir ${nodeDir}`)
    .replace(/^cluster-config-file \/data\/nodes\.conf$/m, `cluster-config-file ${nodeDir}/nodes.conf`)
    .replace(/^include \/run\/redis\/auth\.conf$/m, `include ${runDir}/auth.conf`);
  for (const moved of [`port ${port}`, `dir ${nodeDir}`, `include ${runDir}/auth.conf`]) {
    if (!conf.includes(moved)) throw new Error(`redis-cluster.conf changed shape: cannot set "${moved}"`);
  }
  const file = path.join(nodeDir, 'redis.conf');
  fs.writeFileSync(file, conf);
  return file;
}

const startRedis = (conf, env, args = []) =>
  startChild('sh', [path.join(CONFIG, 'start-redis.sh'), conf, ...args], {
    env: { ...process.env, PATH: `${path.dirname(requireTool('redis-server'))}:${process.env.PATH}`, ...env },
  });

const formCluster = (env = {}) =>
  spawnSync('sh', [path.join(CONFIG, 'form-cluster.sh')], {
    encoding: 'utf8',
    timeout: 120000,
    env: {
      ...process.env,
      PATH: `${path.dirname(requireTool('redis-cli'))}:${process.env.PATH}`,
      REDIS_NODES: nodes.map((n) => `127.0.0.1:${n.port}`).join(' '),
      REDISCLI_AUTH: password,
      WAIT_SECONDS: '60',
      ...env,
    },
  });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-redis-scripts-'));
  for (let i = 0; i < 6; i++) {
    const port = await clusterPort();
    const nodeDir = path.join(dir, `node-${i}`);
    const runDir = path.join(dir, `run-${i}`);
    fs.mkdirSync(nodeDir);
    fs.mkdirSync(runDir);
    const child = startRedis(
      localConfig(port, nodeDir, runDir),
      { REDIS_PASSWORD: password, REDIS_RUN_DIR: runDir },
      ['--cluster-announce-ip', '127.0.0.1'],
    );
    nodes.push({ port, child, runDir, nodeDir });
  }
  for (const n of nodes) await waitForRedis(n.port, { password, timeoutMs: 15000 });
}, 60000);

afterAll(async () => {
  for (const n of nodes) await n.child.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('start-redis.sh refuses to start without a password, or with one redis.conf cannot carry', () => {
  const conf = path.join(CONFIG, 'redis-standalone.conf');
  const sh = (env) =>
    spawnSync('sh', [path.join(CONFIG, 'start-redis.sh'), conf], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...env },
    });
  const missing = sh({});
  expect(missing.status).not.toBe(0);
  expect(missing.stderr).toMatch(/REDIS_PASSWORD is empty: create the redis-auth Secret/);
  const quoted = sh({ REDIS_PASSWORD: 'a b"c', REDIS_RUN_DIR: dir });
  expect(quoted.status).toBe(1);
  expect(quoted.stderr).toMatch(/may only contain/);
});

test('the password is required, kept out of the command line, and AOF is on with fsync every second', async () => {
  const noAuth = spawnSync(requireTool('redis-cli'), ['-p', String(nodes[0].port), 'ping'], {
    encoding: 'utf8',
  });
  expect(noAuth.stdout).toMatch(/NOAUTH/);
  expect(fs.readFileSync(`/proc/${nodes[0].child.pid}/cmdline`, 'utf8')).not.toContain(password);
  expect(fs.statSync(path.join(nodes[0].runDir, 'auth.conf')).mode & 0o077).toBe(0);
  expect(await redisCli(nodes[0].port, password, 'config', 'get', 'appendonly')).toMatch(/appendonly\s+yes/);
  expect(await redisCli(nodes[0].port, password, 'config', 'get', 'appendfsync')).toMatch(
    /appendfsync\s+everysec/,
  );
});

test('form-cluster.sh forms 3 primaries with one replica each, then only checks on a second run', async () => {
  const first = formCluster();
  expect({ status: first.status, err: first.stderr.slice(-2000) }).toMatchObject({ status: 0 });
  expect(first.stdout).toMatch(/creating the cluster/);
  const info = await redisCli(nodes[3].port, password, 'cluster', 'info');
  expect(info).toMatch(/cluster_state:ok/);
  expect(info).toMatch(/cluster_known_nodes:6/);
  expect(info).toMatch(/cluster_size:3/);
  const roles = (await redisCli(nodes[0].port, password, 'cluster', 'nodes'))
    .split('\n')
    .map((line) => (/\bmaster\b/.test(line) ? 'primary' : 'replica'));
  expect(roles.sort()).toEqual(['primary', 'primary', 'primary', 'replica', 'replica', 'replica']);

  const again = formCluster();
  expect(again.status).toBe(0);
  expect(again.stdout).toMatch(/cluster formed; waiting until every node agrees/);
  expect(again.stdout).not.toMatch(/creating the cluster/);
}, 150000);

test('after all six restart at new addresses, form-cluster.sh re-introduces them and the data is still there', async () => {
  const cli = (port, ...args) => redisCli(port, password, '-c', ...args);
  expect(await cli(nodes[0].port, 'set', 'customer:1', 'kept')).toBe('OK');
  const ids = (await Promise.all(nodes.map((n) => redisCli(n.port, password, 'cluster', 'myid')))).map((id) =>
    id.trim(),
  );
  // A full restart: every node at once, each at an address no node had (here the port; on a node
  // the IP a rescheduled pod gets). Right after it, the nodes still agree on cluster_state:ok;
  // only their addresses tell. Not addresses swapped among them: gossip may heal those by itself
  // before the script runs, so the stale view below would hold only sometimes.
  for (const n of nodes) await n.child.stop();
  const oldPorts = new Set(nodes.map((n) => n.port));
  for (const n of nodes) {
    do n.port = await clusterPort();
    while (oldPorts.has(n.port));
    const conf = localConfig(n.port, n.nodeDir, n.runDir);
    n.child = startRedis(conf, { REDIS_PASSWORD: password, REDIS_RUN_DIR: n.runDir }, [
      '--cluster-announce-ip',
      '127.0.0.1',
    ]);
  }
  for (const n of nodes) await waitForRedis(n.port, { password, timeoutMs: 15000 });
  // Each node remembers its peers at their old addresses, where no one answers now.
  const stale = await redisCli(nodes[0].port, password, 'cluster', 'nodes');
  const atNow = (view, i) => view.includes(`${ids[i]} 127.0.0.1:${nodes[i].port}@`);
  expect(nodes.every((n, i) => i === 0 || atNow(stale, i))).toBe(false);

  const healed = formCluster();
  expect({ status: healed.status, err: healed.stderr.slice(-2000) }).toMatchObject({ status: 0 });
  expect(healed.stdout).toMatch(/at other addresses \(pods moved\): introducing the nodes/);
  expect(await redisCli(nodes[5].port, password, 'cluster', 'info')).toMatch(/cluster_state:ok/);
  for (const n of nodes) {
    const view = await redisCli(n.port, password, 'cluster', 'nodes');
    expect(nodes.map((_, i) => atNow(view, i))).toEqual(nodes.map(() => true));
  }
  // AOF: the write survived the restart of every node.
  expect(await cli(nodes[2].port, 'get', 'customer:1')).toBe('kept');
}, 150000);

test('form-cluster.sh fails with a message when it cannot authenticate', () => {
  const r = formCluster({ REDISCLI_AUTH: 'wrong', WAIT_SECONDS: '3' });
  expect(r.status).not.toBe(0);
  expect(r.stderr).toMatch(/timed out waiting for: all_answer/);
});
