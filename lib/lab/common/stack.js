'use strict';
// Starting the lab's real processes: redis-server (one, or six formed into a cluster), the
// data-service instances and HAProxy. Each is a detached daemon with a pid file and a record
// (pids.js), so lab:down can stop exactly these processes later, from another shell.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../core/paths');
const { requireTool } = require('../../core/tools');
const { startDaemon } = require('../../core/processes');
const { inNetns } = require('../../core/netns');
const { setTimeout: sleep } = require('node:timers/promises');
const { waitForPort } = require('../../core/ports');
const { redisServerArgs, waitForRedis, formCluster } = require('../../core/redis-server');
const { pidFile, logFile, recordProcess, processState } = require('./pids');
const { SERVICE_HOST } = require('./routes');
const { request, instanceUrl } = require('./client');

const SERVICE_MAIN = path.join(ROOT, 'data-service', 'src', 'server.js');
/** Where the template lab's backends listen: the host's loopback. */
const LOOPBACK = { host: '127.0.0.1', netns: null };

/**
 * Polls `probe` (resolves truthy when done) until it succeeds, the deadline, or an abort of
 * `signal` (which rejects with Node's AbortError at once, also in the middle of a pause).
 */
async function waitUntil(probe, { timeoutMs, what, signal, intervalMs = 100, diagnose }) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    signal?.throwIfAborted();
    try {
      if (await probe()) return;
    } catch (err) {
      if (err.fatal) throw err;
      last = err.message;
    }
    if (Date.now() > deadline) {
      const extra = diagnose ? diagnose() : '';
      throw new Error(
        `${what} did not happen within ${timeoutMs} ms${last ? ` (last: ${last})` : ''}${extra}`,
      );
    }
    await sleep(intervalMs, undefined, { signal });
  }
}

/** The last lines of a process's log, for error messages. */
function logTail(labDir, name, lines = 15) {
  try {
    const text = fs.readFileSync(logFile(labDir, name), 'utf8').trimEnd().split('\n');
    return `\n--- last lines of ${path.relative(process.cwd(), logFile(labDir, name))} ---\n${text
      .slice(-lines)
      .join('\n')}`;
  } catch {
    return '';
  }
}

/**
 * Starts a daemon (inside network namespace `netns` when given: `ip netns exec` keeps the pid)
 * and records it; dies early (bad config, port taken) are reported with its log.
 */
function launch(labDir, { name, role, file, args, env, cwd, cpus, match, netns = null }) {
  const [command, argv] = inNetns(netns, [file, args]);
  const pid = startDaemon({
    file: command,
    args: argv,
    env,
    cwd,
    cpus: cpus || undefined,
    logFile: logFile(labDir, name),
    pidFile: pidFile(labDir, name),
  });
  return recordProcess(labDir, name, pid, { match, role });
}

function assertRunning(labDir, record) {
  if (processState(record) !== 'running') {
    const err = new Error(
      `${record.name} (pid ${record.pid}) exited during start-up${logTail(labDir, record.name)}`,
    );
    err.fatal = true; // no point in waiting any longer
    throw err;
  }
}

/**
 * Starts redis-server(s); returns { mode, ports, records }. `fsync`: the AOF policy
 * (LAB_REDIS_FSYNC), null for no persistence. To restart one node on its own: `first`, the
 * number in its name (redis-<n>), and `form: false` (a cluster node rejoins by its nodes file).
 * `fresh`: empty each data directory first (lab:up: a new lab starts with no data and no stale
 * cluster state; a restart keeps both). `network`: { host, netns } where Redis listens (default
 * loopback; the pod network's address inside its namespace with LAB_ROUTER=openshift).
 */
async function startRedis(
  labDir,
  { mode, ports, cpus, signal, fsync = null, first = 1, form = true, fresh = false, network = LOOPBACK },
) {
  const { host, netns } = network;
  const server = requireTool('redis-server');
  const records = ports.map((port, i) => {
    signal?.throwIfAborted();
    const dir = path.join(labDir, 'redis', String(port));
    if (fresh) fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    return launch(labDir, {
      name: `redis-${first + i}`,
      role: 'redis',
      file: server,
      args: redisServerArgs({ port, dir, cluster: mode === 'cluster', appendfsync: fsync, bind: host }),
      cwd: dir,
      cpus,
      match: 'redis-server',
      netns,
    });
  });
  for (const [i, port] of ports.entries()) {
    signal?.throwIfAborted();
    try {
      await waitForRedis(port, { timeoutMs: 10000, signal, host });
    } catch (err) {
      signal?.throwIfAborted();
      throw new Error(`${err.message}${logTail(labDir, records[i].name)}`, { cause: err });
    }
  }
  if (mode === 'cluster' && form) {
    try {
      // The signal kills a running redis-cli: Ctrl-C does not wait out formation's 30 s.
      await formCluster(ports, { timeoutMs: 30000, signal, host });
    } catch (err) {
      signal?.throwIfAborted();
      throw err;
    }
  }
  return { mode, ports, records };
}

/** The environment of one data-service instance (docs/contract.md's variables). */
function serviceEnv(instance, { redis, certs, logLevel, drainDelayMs }) {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME || '/',
    NODE_ENV: 'production',
    PORT: String(instance.port),
    TLS_PORT: String(instance.tlsPort),
    TLS_CERT_FILE: certs.serviceCert,
    TLS_KEY_FILE: certs.serviceKey,
    ...(certs.serviceTicketKeys && { TLS_TICKET_KEYS_FILE: certs.serviceTicketKeys }),
    INSTANCE_NAME: instance.name,
    LOG_LEVEL: logLevel,
    DRAIN_DELAY_MS: String(drainDelayMs),
  };
  if (redis.waitReplicas) env.REDIS_WAIT_REPLICAS = String(redis.waitReplicas);
  const host = redis.host || LOOPBACK.host;
  if (redis.mode === 'cluster') env.REDIS_CLUSTER_NODES = redis.ports.map((p) => `${host}:${p}`).join(',');
  else env.REDIS_URL = `redis://${host}:${redis.ports[0]}`;
  return env;
}

/**
 * The argument that tells one lab's instance apart on its command line, for the lab's process
 * exporter (./monitoring.js); the service ignores its arguments.
 */
function instanceMarker(labDir, name) {
  return `--lab-instance=${path.join(labDir, name)}`;
}

/**
 * Starts the data-service instances and waits until each answers /readyz on both ports. Each
 * instance listens on its `host` (loopback, or in the pod network's namespace `netns`).
 */
async function startServices(
  labDir,
  { instances, redis, certs, logLevel, drainDelayMs, cpus, signal, netns = null },
) {
  const records = instances.map((instance) => {
    signal?.throwIfAborted();
    return launch(labDir, {
      name: instance.name,
      role: 'service',
      file: process.execPath,
      args: [SERVICE_MAIN, instanceMarker(labDir, instance.name)],
      env: serviceEnv(instance, { redis, certs, logLevel, drainDelayMs }),
      cwd: path.join(ROOT, 'data-service'),
      cpus,
      match: SERVICE_MAIN,
      netns,
    });
  });
  await Promise.all(
    instances.map((instance, i) =>
      waitUntil(
        async () => {
          assertRunning(labDir, records[i]);
          const plain = await request(instanceUrl(instance, '/readyz'), { timeoutMs: 2000 });
          const tls = await request(instanceUrl(instance, '/readyz', { tls: true }), {
            timeoutMs: 2000,
            ca: fs.readFileSync(certs.serviceCA),
            servername: SERVICE_HOST,
          });
          return plain.status === 200 && tls.status === 200;
        },
        {
          timeoutMs: 20000,
          what: `${instance.name} answering 200 on /readyz (ports ${instance.port}, ${instance.tlsPort})`,
          signal,
          diagnose: () => logTail(labDir, instance.name),
        },
      ),
    ),
  );
  return records;
}

/**
 * Starts HAProxy on the rendered configuration and waits for its three listeners. `extraArgs`:
 * a reload's `-x <admin socket> -sf <old pids>` (lib/lab/reload.js).
 */
async function startRouter(
  labDir,
  { config, ports, cpus, signal, haproxy = requireTool('haproxy'), extraArgs = [] },
) {
  signal?.throwIfAborted();
  const record = launch(labDir, {
    name: 'router',
    role: 'router',
    file: haproxy,
    args: ['-f', config, ...extraArgs],
    cpus,
    match: config,
  });
  for (const [port, what] of [
    [ports.http, 'router HTTP'],
    [ports.https, 'router HTTPS'],
    [ports.stats, 'router stats'],
  ]) {
    await waitUntil(
      async () => {
        assertRunning(labDir, record);
        await waitForPort(port, { timeoutMs: 200, what });
        return true;
      },
      { timeoutMs: 10000, what: `${what} listening on 127.0.0.1:${port}`, signal },
    );
  }
  return record;
}

module.exports = {
  startRedis,
  startServices,
  startRouter,
  waitUntil,
  logTail,
  SERVICE_MAIN,
  LOOPBACK,
  launch,
  assertRunning,
  instanceMarker,
};
