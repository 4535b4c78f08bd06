'use strict';
// Scenario: exhaustion, reproduced and explained, in three cases (maxconnCase, portsCase,
// narrowPortsCase), each ending in a diagnosis in the words a user would search for and the tuning
// that fixes it. The router's own maxconn is restored afterwards, also on Ctrl-C.
const os = require('node:os');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { readProcFile, sysctl } = require('../core/proc');
const { isAlive } = require('../core/processes');
const { reload } = require('../lab/reload');
const { adminSocket } = require('../lab/template-router/reload');
const { showStat, showInfo } = require('../lab/haproxy/runtime-api');
const { checkEphemeralPorts } = require('../lab/common/preflight');
const { netnsSupport, createNetns, removeStaleNetns, readInNetns } = require('../core/netns');
const { bridgeIntoNetns } = require('../core/port-bridge');
const { steadyPages } = require('./load');
const { checkScenario, observedCase } = require('./scenario');

const TIME_WAIT = '06';

/**
 * Connections to `port` in TIME_WAIT in `tables` (the text of /proc/net/tcp and tcp6): { client }
 * (held by the clients' side, remote port `port`) and { router } (held by the router's side,
 * local port `port`). On loopback both ends are on this host.
 */
function timeWaitIn(tables, port) {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const counts = { client: 0, router: 0 };
  for (const table of tables) {
    for (const line of (table || '').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] !== TIME_WAIT) continue;
      if (f[2] && f[2].endsWith(hex)) counts.client++;
      else if (f[1] && f[1].endsWith(hex)) counts.router++;
    }
  }
  return counts;
}

/** TIME_WAIT connections to `port` as this process sees them. */
function timeWaitTo(port) {
  return timeWaitIn(
    ['net/tcp', 'net/tcp6'].map((file) => readProcFile('self', file)),
    port,
  );
}

/** TIME_WAIT connections to `port` inside namespace `netns`. */
async function timeWaitInNetns(netns, port) {
  return timeWaitIn([await readInNetns(netns, '/proc/net/tcp')], port);
}

/** Samples `read()` every `everyMs` until `until` settles; resolves the largest value seen. */
async function peak(read, until, everyMs = 250) {
  let max = null;
  let done = false;
  until.finally(() => (done = true)).catch(() => {});
  while (!done) {
    try {
      const v = await read();
      if (v !== null && (max === null || v > max)) max = v;
    } catch {
      // a sample missed: the next one counts
    }
    await sleep(everyMs);
  }
  return max;
}

/**
 * The router reloaded with a maxconn far below the connections many clients hold open: HAProxy's
 * counters show the limit reached, and the clients see waiting (the accept queue), not errors.
 */
async function maxconnCase(ctx) {
  const { opts } = ctx;
  const state = ctx.state();
  const original = state.router.maxconn;
  const socket = adminSocket(state.labDir);
  ctx.log(
    `  maxconn: router reloaded with maxconn ${opts.exhaustMaxconn}; ${opts.exhaustConnections} clients, close mode`,
  );
  const start = Date.now();
  await reload({ env: ctx.env, signal: ctx.signal, overrides: { maxconn: opts.exhaustMaxconn } });
  const injected = [
    { atMs: 0, what: `router reloaded with maxconn ${opts.exhaustMaxconn} (was ${original})` },
  ];
  try {
    const loading = steadyPages({
      k6: ctx.k6,
      target: ctx.target,
      termination: 'http',
      // close: every request queues for a connection slot anew, so every client is served in
      // turn and the wait shows in latency. (With keep-alive the first maxconn clients keep
      // their slots and the others wait unserved until those close: starvation, no error.)
      connection: 'close',
      vus: opts.exhaustConnections,
      durationSeconds: opts.exhaustSeconds,
      summaryPath: ctx.rawFile('exhaustion-maxconn.json'),
      signal: ctx.signal,
    });
    // HAProxy's own view, through the admin socket: connections now (CurrConns) against its limit.
    const current = peak(async () => Number((await showInfo(socket)).CurrConns), loading);
    const frontend = peak(async () => {
      const row = (await showStat(socket)).find((r) => r.pxname === 'public' && r.svname === 'FRONTEND');
      return row ? Number(row.smax) : null;
    }, loading);
    const load = await loading;
    const router = {
      maxconn: opts.exhaustMaxconn,
      currConnsPeak: await current,
      frontendSmax: await frontend,
    };
    const reached = router.currConnsPeak !== null && router.currConnsPeak >= opts.exhaustMaxconn;
    const diagnosis = reached
      ? `router maxconn reached: HAProxy held ${router.currConnsPeak} connections, its maxconn, while ` +
        `${opts.exhaustConnections} clients wanted one; the others waited in the kernel's accept queue ` +
        `(listen backlog), so clients saw latency (p50 ${load.p50} ms, p99 ${load.p99} ms, max ${load.max} ms) ` +
        `rather than errors (${load.failed} failed), and nothing was logged. Fix: raise maxconn (OpenShift: IngressController ` +
        `spec.tuningOptions.maxConnections; the lab: LAB_MAXCONN), with the file-descriptor limit to match ` +
        `(2 per connection), or offer fewer concurrent connections (keep-alive pools).`
      : null;
    ctx.log(
      `    ${reached ? `maxconn reached (${router.currConnsPeak} connections)` : 'maxconn NOT reached'}; p99 ${load.p99} ms`,
    );
    return observedCase({
      name: 'router maxconn',
      injected,
      load,
      errors: load.errorKinds,
      figures: {
        router,
        diagnosis,
        reached,
        routerAlive: isAlive(ctx.state().router.pid),
        // What lab:up's preflight said about this lab's maxconn (lab.json keeps both figures).
        preflight:
          state.router.maxconnRequested && state.router.maxconnRequested !== original
            ? `maxconn ${state.router.maxconnRequested} was asked and lowered to ${original}: the file-descriptor ` +
              `limit holds no more (2 per connection); 'ulimit -n' raises it`
            : `maxconn ${original} fits the file-descriptor limit`,
      },
    });
  } finally {
    // Back to the lab's own limit; not abortable, or Ctrl-C would leave maxconn lowered.
    await reload({ env: ctx.env, overrides: { maxconn: original } });
    ctx.log(`    router reloaded back to maxconn ${original} (${Date.now() - start} ms in all)`);
  }
}

const PORTS_FIX =
  'Fix: keep-alive (one connection for many requests); widen the range ' +
  '(sysctl -w net.ipv4.ip_local_port_range="1024 65535"); net.ipv4.tcp_tw_reuse=1 for outgoing ' +
  'connections; more client addresses (k6 --local-ips) or more load-generator hosts.';

/** The exhaustion, in the words a user would search for. */
function exhaustedText({ timeWaitPeak, range, noResponse }) {
  return (
    `ephemeral port exhaustion ("cannot assign requested address", EADDRNOTAVAIL, the bank's "no free ports"): ` +
    `the client held ${timeWaitPeak} connections to the router in TIME_WAIT against ${range} local ports, and ` +
    `${noResponse} requests could not even connect. It is the client's limit, not the router's. ${PORTS_FIX}`
  );
}

/** What lab:up's preflight says of a port range: its warning, or else its note. */
function preflightSays(sysctls) {
  const check = checkEphemeralPorts(sysctls);
  return check.warnings?.[0] ?? check.notes?.[0] ?? null;
}

/** The ports cases' load: close mode at --exhaust-rate through the http Route, from `netns` if given. */
function closeModeLoad(ctx, file, { netns } = {}) {
  return steadyPages({
    k6: ctx.k6,
    target: ctx.target,
    termination: 'http',
    connection: 'close',
    rate: ctx.opts.exhaustRate,
    durationSeconds: ctx.opts.exhaustSeconds,
    summaryPath: ctx.rawFile(file),
    netns,
    signal: ctx.signal,
  });
}

/**
 * Close mode at a high rate: each request a new connection, whose local port then waits 60 s in
 * TIME_WAIT; the client's TIME_WAIT sockets are counted against the ephemeral range.
 */
async function portsCase(ctx) {
  const { opts } = ctx;
  const state = ctx.state();
  const port = state.router.httpPort;
  const [low, high] = (sysctl('net.ipv4.ip_local_port_range') || '0 0').split(/\s+/).map(Number);
  const range = high - low + 1;
  const twReuse = sysctl('net.ipv4.tcp_tw_reuse');
  ctx.log(
    `  ephemeral ports: close mode at ${opts.exhaustRate} req/s via http; ${range} ports, tcp_tw_reuse=${twReuse}`,
  );
  const before = timeWaitTo(port);
  const loading = closeModeLoad(ctx, 'exhaustion-ports.json');
  // The client's side counts against its ports; a TIME_WAIT the router holds (it closed first)
  // is on the router's listening port and keeps none of them.
  let routerTimeWaitPeak = 0;
  const timeWaitPeak = await peak(async () => {
    const tw = timeWaitTo(port);
    routerTimeWaitPeak = Math.max(routerTimeWaitPeak, tw.router);
    return tw.client;
  }, loading);
  const load = await loading;
  const noResponse = load.errors['0'] || 0;
  const exhausted = noResponse > 0 && timeWaitPeak >= 0.9 * range;
  const newPerSecond = load.rps;
  const lastsSeconds = newPerSecond ? Math.round(range / newPerSecond) : null;
  const diagnosis = exhausted
    ? exhaustedText({ timeWaitPeak, range, noResponse })
    : `no ephemeral port exhaustion at ${newPerSecond} new connections/s: the client held at most ` +
      `${timeWaitPeak} connections to the router in TIME_WAIT, against ${range} local ports. ` +
      (twReuse === '2' || twReuse === '1'
        ? `tcp_tw_reuse=${twReuse} lets new connections${twReuse === '2' ? ' on loopback' : ''} reuse TIME_WAIT ports. `
        : '') +
      `Without reuse, every closed connection holds its port 60 s, so about ${Math.floor(range / 60)} new ` +
      `connections/s to one router address and port exhaust them` +
      (lastsSeconds ? ` (at this rate, in ${Math.min(60, lastsSeconds)} s)` : '') +
      `, and connect() fails with "cannot assign requested address" (EADDRNOTAVAIL). ` +
      (routerTimeWaitPeak > timeWaitPeak
        ? `Here the router closed first for most connections (up to ${routerTimeWaitPeak} in TIME_WAIT on its side, ` +
          `which spends none of the client's ports); a client that closes first itself, as many load tools do, keeps ` +
          `them all. `
        : '') +
      PORTS_FIX;
  ctx.log(
    `    client TIME_WAIT peak ${timeWaitPeak} (before ${before.client}); ${noResponse} requests without response`,
  );
  return observedCase({
    name: 'ephemeral ports (close mode)',
    injected: [{ atMs: 0, what: `close mode at ${opts.exhaustRate} req/s: a new connection per request` }],
    load,
    errors: load.errorKinds,
    figures: {
      ports: {
        range,
        low,
        high,
        tcpTwReuse: twReuse,
        timeWaitPeak,
        routerTimeWaitPeak,
        timeWaitBefore: before,
        timeWaitAfter: timeWaitTo(port),
      },
      preflight: preflightSays(),
      diagnosis,
      exhausted,
      routerAlive: isAlive(ctx.state().router.pid),
    },
  });
}

/** The namespace's name, before the pid of the run that made it. */
const NETNS_PREFIX = 'rlab-ports-';
/** The namespace's ephemeral range: spent within a second at the exhaustion rate. */
const NETNS_PORTS = { low: 50000, high: 50199 };

/**
 * The same close-mode load from inside a network namespace of its own, where the range is
 * NETNS_PORTS, TIME_WAIT ports are not reused, and the client closes each connection first (as
 * many load tools do; against HAProxy directly the router mostly closes first, and the
 * TIME_WAIT is its own): the ports run out. The router is reached
 * through a port bridge (lib/core/port-bridge.js); its own count of accepted connections shows
 * that the failed requests never reached it. Null (and why) where namespaces cannot be made.
 */
async function narrowPortsCase(ctx) {
  const support = netnsSupport();
  if (!support.ok)
    return { skipped: `ephemeral ports run out on purpose: not reproduced here (${support.why})` };
  const { opts } = ctx;
  const state = ctx.state();
  const port = state.router.httpPort;
  const range = NETNS_PORTS.high - NETNS_PORTS.low + 1;
  const name = `${NETNS_PREFIX}${process.pid}`;
  await removeStaleNetns(NETNS_PREFIX);
  ctx.log(
    `  ephemeral ports run out: close mode at ${opts.exhaustRate} req/s from network namespace ${name}, ` +
      `${range} ports, tcp_tw_reuse=0`,
  );
  const netns = await createNetns(name, {
    'net.ipv4.ip_local_port_range': `${NETNS_PORTS.low} ${NETNS_PORTS.high}`,
    'net.ipv4.tcp_tw_reuse': '0',
  });
  let bridge = null;
  try {
    bridge = await bridgeIntoNetns({
      netns: name,
      port,
      socketPath: path.join(os.tmpdir(), `${name}.sock`),
    });
    const socket = adminSocket(state.labDir);
    const acceptedBefore = Number((await showInfo(socket)).CumConns);
    const loading = closeModeLoad(ctx, 'exhaustion-ports-netns.json', { netns: name });
    const timeWaitPeak = await peak(async () => (await timeWaitInNetns(name, port)).client, loading);
    const load = await loading;
    // Less the one connection of each `show info`.
    const accepted = Number((await showInfo(socket)).CumConns) - acceptedBefore - 1;
    const noResponse = load.errors['0'] || 0;
    const cannotAssign = load.clientErrors.some((e) => /cannot assign requested address/.test(e));
    const exhausted = noResponse > 0 && cannotAssign && timeWaitPeak >= 0.9 * range;
    const seen =
      `The router accepted ${accepted} connections for the ${load.requests} requests: the ` +
      `${noResponse} that failed never reached it.`;
    const diagnosis = exhausted
      ? `${exhaustedText({ timeWaitPeak, range, noResponse })} ${seen} k6 said: ${load.clientErrors[0]}.`
      : null;
    ctx.log(
      `    client TIME_WAIT peak ${timeWaitPeak} of ${range} ports; ${noResponse} requests without response` +
        `${cannotAssign ? ' ("cannot assign requested address")' : ''}; the router accepted ${accepted} connections`,
    );
    const sysctls = {
      rangeText: await readInNetns(name, '/proc/sys/net/ipv4/ip_local_port_range'),
      twReuseText: await readInNetns(name, '/proc/sys/net/ipv4/tcp_tw_reuse'),
    };
    return observedCase({
      name: `ephemeral ports run out (namespace: ${range} ports, tcp_tw_reuse=0, the client closes first)`,
      injected: [
        {
          atMs: 0,
          what:
            `close mode at ${opts.exhaustRate} req/s from a network namespace with ${range} ephemeral ports and no ` +
            `TIME_WAIT reuse, the client closing each connection itself`,
        },
      ],
      load,
      errors: load.errorKinds,
      figures: {
        ports: { range, low: NETNS_PORTS.low, high: NETNS_PORTS.high, tcpTwReuse: '0', timeWaitPeak },
        router: { acceptedConnections: accepted },
        preflight: preflightSays({
          rangeText: sysctls.rangeText.trim(),
          twReuseText: sysctls.twReuseText.trim(),
        }),
        diagnosis,
        exhausted,
        routerAlive: isAlive(ctx.state().router.pid),
      },
    });
  } finally {
    await bridge?.close();
    await netns.remove();
  }
}

module.exports = checkScenario({
  name: 'exhaustion',
  title: 'Exhaustion: maxconn and ephemeral ports',
  promise:
    'the cause named in the words a user would search for, with the tuning that fixes it; the router stays up',
  describe: (opts) =>
    `router maxconn ${opts.exhaustMaxconn} against ${opts.exhaustConnections} clients (a connection per request); ` +
    `close mode at ${opts.exhaustRate} req/s, from this host and (as root) from a network namespace with ` +
    `${NETNS_PORTS.high - NETNS_PORTS.low + 1} ephemeral ports; ${opts.exhaustSeconds} s each through the http Route`,
  async inject(ctx) {
    const cases = [await maxconnCase(ctx)];
    ctx.signal?.throwIfAborted();
    cases.push(await portsCase(ctx));
    ctx.signal?.throwIfAborted();
    const narrow = await narrowPortsCase(ctx);
    if (narrow.skipped) return { cases, notes: [narrow.skipped] };
    return { cases: [...cases, narrow] };
  },
  /** Its diagnoses in full (reliability.md and .html). */
  extras(result) {
    return result.cases.map((c) => ({ title: c.name, text: c.figures.diagnosis ?? 'nothing reproduced.' }));
  },
  verdict(observation) {
    const reasons = [];
    const notes = [...(observation.notes || [])];
    for (const c of observation.cases) {
      if (!c.figures.routerAlive) reasons.push(`${c.name}: the router is gone`);
      if (!c.figures.diagnosis) {
        const peakText = c.figures.ports
          ? `the client held at most ${c.figures.ports.timeWaitPeak} of ${c.figures.ports.range} ports in TIME_WAIT`
          : `HAProxy peaked at ${c.figures.router?.currConnsPeak} connections`;
        reasons.push(
          `${c.name}: the limit was not reached (${peakText}): nothing reproduced, nothing explained`,
        );
      }
      if (c.figures.preflight) notes.push(`${c.name}: preflight says: ${c.figures.preflight}`);
    }
    return { pass: reasons.length === 0, reasons, notes };
  },
});

module.exports.timeWaitTo = timeWaitTo;
