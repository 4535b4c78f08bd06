'use strict';
// Checks before lab:up starts anything, each with a message that says what is wrong, why it
// matters for the benchmark, and how to fix it. Errors stop lab:up; warnings and notes are printed.
const net = require('node:net');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT } = require('../../core/paths');
const { findTool } = require('../../core/tools');
const { sysctl, readProcFile } = require('../../core/proc');
const { describeHaproxy, checkHaproxyVersion } = require('../haproxy/binary');
const { releaseHaproxy } = require('./router-kinds');
/** File descriptors HAProxy keeps for itself beyond 2 per connection (listeners, checks, pipes). */
const FD_OVERHEAD = 500;
/** Linux's default ephemeral range (32768-60999) holds 28232 ports; less is "narrow". */
const NARROW_EPHEMERAL_RANGE = 28232;
/** TIME_WAIT lasts 60 s on Linux (TCP_TIMEWAIT_LEN, not tunable). */
const TIME_WAIT_SECONDS = 60;
/** The longest unix socket path Linux accepts (sun_path is 108 bytes with the NUL). */
const MAX_UNIX_SOCKET_PATH = 107;

/** Why the router's HAProxy is missing, and how to get it. */
function missingHaproxy(options) {
  const build = releaseHaproxy(options);
  if (!build)
    return "haproxy is not installed (looked in .tools/bin and on PATH): run 'npm run setup -- --for lab'";
  return (
    `release-${options.openshiftRelease}'s router runs on HAProxy ${build.branch}, as its image ships it, ` +
    `and ${build.bin} is not built: run 'npm run setup -- ${build.setup}', or run it on another with LAB_HAPROXY=<path>`
  );
}

/** Missing tools, each with how to get it. `haproxy` is LAB_HAPROXY's resolved path (or null). */
function checkTools(options) {
  const { placement, haproxy } = options;
  const errors = haproxy ? [] : [missingHaproxy(options)];
  for (const name of ['redis-server', 'redis-cli', 'openssl'].filter((n) => !findTool(n))) {
    errors.push(
      `${name} is not installed (looked in .tools/bin and on PATH): run 'npm run setup -- --for lab'`,
    );
  }
  if (placement && !findTool('taskset')) {
    errors.push(`LAB_CPUS is set but taskset is not installed: install util-linux, or unset LAB_CPUS`);
  }
  try {
    require.resolve('express', { paths: [path.join(ROOT, 'data-service')] });
  } catch {
    errors.push(`the data service's npm dependencies are not installed: run 'npm run setup -- --for lab'`);
  }
  return errors;
}

/** Resolves with null when 127.0.0.1:port can be bound, else with the error code. */
function tryBind(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (err) => resolve(err.code || 'error'));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** Which program listens on a TCP port, from `ss` when it is available ('' otherwise). */
function listenerOf(port) {
  const ss = findTool('ss');
  if (!ss) return '';
  try {
    const out = execFileSync(ss, ['-H', '-ltnp', `sport = :${port}`], { encoding: 'utf8', timeout: 5000 });
    const users = /users:\(\("([^"]+)",pid=(\d+)/.exec(out);
    return users ? ` by ${users[1]} (pid ${users[2]})` : '';
  } catch {
    return '';
  }
}

/**
 * Ports the lab wants: [{ port, what, knob }]. Each must be free; the message names the port, what
 * the lab wanted it for and the knob that moves it.
 */
async function checkPorts(wanted) {
  const errors = [];
  for (const { port, what, knob } of wanted) {
    const code = await tryBind(port);
    if (code === null) continue;
    const reason =
      code === 'EADDRINUSE' ? `is already in use${listenerOf(port)}` : `cannot be bound (${code})`;
    errors.push(
      `port ${port} (${what}) ${reason}: stop that program, or move the lab with ${knob}=<port> ` +
        `(e.g. ${knob}=${port + 1} npm run lab:up)`,
    );
  }
  return errors;
}

/** The open-files limits of this process (children inherit them): { soft, hard }, or null. */
function fileLimits() {
  try {
    const line = readProcFile('self', 'limits')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const [soft, hard] = line
      .replace('Max open files', '')
      .trim()
      .split(/\s+/)
      .map((v) => (v === 'unlimited' ? Infinity : Number(v)));
    return { soft, hard };
  } catch {
    try {
      const soft = Number(execFileSync('sh', ['-c', 'ulimit -Sn'], { encoding: 'utf8' }).trim());
      const hard = execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim();
      return { soft, hard: hard === 'unlimited' ? Infinity : Number(hard) };
    } catch {
      return null;
    }
  }
}

/**
 * The maxconn HAProxy can really hold. HAProxy needs two file descriptors per connection (the
 * client's and the server's), one per server for its health checks (`servers`: every Route's
 * endpoints, which LAB_ROUTES multiplies), plus some for itself, and raises its own soft limit up
 * to the hard limit, no further. Returns { maxconn, warning? }.
 */
function fitMaxconn(requested, limits = fileLimits(), { servers = 0 } = {}) {
  if (!limits || !Number.isFinite(limits.hard)) return { maxconn: requested };
  const overhead = FD_OVERHEAD + servers;
  const needed = requested * 2 + overhead;
  if (needed <= limits.hard) return { maxconn: requested };
  const maxconn = Math.max(100, Math.floor((limits.hard - overhead) / 2));
  return {
    maxconn,
    warning:
      `maxconn lowered from ${requested} to ${maxconn}: the open-files hard limit is ${limits.hard}, ` +
      `and HAProxy needs 2 file descriptors per connection (client side + server side) plus about ` +
      `${overhead} for itself and its servers' health checks, so ${requested} connections need ${needed}. ` +
      `On OpenShift the router pod gets a limit that fits. To raise it here: 'ulimit -n ${needed}' in ` +
      `this shell (root, or after raising the hard limit: 'nofile' in /etc/security/limits.conf, ` +
      `LimitNOFILE= for a systemd unit, or 'docker run --ulimit nofile=${needed}'), then run lab:up again.`,
  };
}

/** The ephemeral port range and what it means for connection-per-request load. */
function checkEphemeralPorts({
  rangeText = sysctl('net.ipv4.ip_local_port_range'),
  twReuseText = sysctl('net.ipv4.tcp_tw_reuse'),
} = {}) {
  if (rangeText === null || twReuseText === null) {
    return { notes: ['ephemeral port range: not readable here (no /proc/sys); see docs/lab.md'] };
  }
  const [low, high] = rangeText.split(/\s+/).map(Number);
  const twReuse = Number(twReuseText);
  const count = high - low + 1;
  const perSecond = Math.floor(count / TIME_WAIT_SECONDS);
  const reuse = { 0: 'off', 1: 'on', 2: 'loopback only' }[twReuse] || String(twReuse);
  const summary =
    `ephemeral ports ${low}-${high} (${count}); tcp_tw_reuse=${twReuse} (${reuse}): without reuse, ` +
    `about ${perSecond} new connections/s to one router port exhaust them (each closed ` +
    `connection holds its port ${TIME_WAIT_SECONDS} s in TIME_WAIT)`;
  if (count >= NARROW_EPHEMERAL_RANGE) return { notes: [summary] };
  return {
    warnings: [
      `${summary}. The range is narrow: connection-per-request tests will fail with ` +
        `"cannot assign requested address" (EADDRNOTAVAIL), the bank's "no free ports" failure, ` +
        `long before the router is the limit. Widen it: ` +
        `sudo sysctl -w net.ipv4.ip_local_port_range="1024 65535" net.ipv4.tcp_tw_reuse=1`,
    ],
  };
}

/** Unix socket paths of the router's internal hop must fit in sun_path. */
function checkSocketPath(runDir) {
  const longest = path.join(runDir, 'haproxy-no-sni.sock');
  if (longest.length <= MAX_UNIX_SOCKET_PATH) return [];
  return [
    `the lab directory path is too long for the router's unix sockets (${longest.length} > ` +
      `${MAX_UNIX_SOCKET_PATH} characters: ${longest}): set LAB_DIR to a shorter path`,
  ];
}

function checkThreads({ threads, placement, cpuCount }) {
  const cores = placement && placement.router.length ? placement.router.length : cpuCount;
  if (threads <= cores) return [];
  return [
    `LAB_ROUTER_THREADS=${threads} is more than the ${cores} core(s) the router may use: ` +
      `threads will share cores, which adds context switches ` +
      `(worth measuring, but do not read it as OpenShift's 4-thread figure)`,
  ];
}

/** The router's HAProxy (haproxy.js) and what its version means: { haproxy, errors, warnings }. */
function checkHaproxy({ haproxy, haproxySource }) {
  if (!haproxy) return { haproxy: null };
  try {
    const info = describeHaproxy(haproxy, { source: haproxySource });
    return { haproxy: info, ...checkHaproxyVersion(info) };
  } catch (err) {
    return { haproxy: null, errors: [err.message] };
  }
}

/**
 * Runs every check, and the router backend's own (`routerChecks(haproxy)`: error texts). `ports`
 * are the fixed ports the lab will bind. Returns
 * { errors, warnings, notes, maxconn, haproxy }.
 */
async function preflight(options, { ports, runDir, routerChecks = () => [] }) {
  const router = checkHaproxy(options);
  const errors = [
    ...checkTools(options),
    ...(router.errors || []),
    ...checkSocketPath(runDir),
    ...routerChecks(router.haproxy),
    ...(await checkPorts(ports)),
  ];
  const warnings = [...checkThreads(options), ...(router.warnings || [])];
  const notes = [];
  const fit = fitMaxconn(options.maxconn, undefined, { servers: options.routes * options.replicas });
  if (fit.warning) warnings.push(fit.warning);
  const eph = checkEphemeralPorts();
  warnings.push(...(eph.warnings || []));
  notes.push(...(eph.notes || []));
  return { errors, warnings, notes, maxconn: fit.maxconn, haproxy: router.haproxy };
}

module.exports = {
  preflight,
  checkTools,
  checkHaproxy,
  checkPorts,
  fitMaxconn,
  fileLimits,
  checkEphemeralPorts,
  FD_OVERHEAD,
};
