'use strict';
// Scenario: exhaustion, reproduced and explained. Two cases:
// - router maxconn far below the offered connections: the lab's router reloaded with a tiny
//   maxconn while many clients keep connections open; HAProxy's own counters show the limit
//   reached, the clients see waiting (the kernel's accept queue), not errors;
// - close mode at a high rate: every request a new connection, whose local port then waits
//   60 s in TIME_WAIT; the client's TIME_WAIT sockets are counted against the ephemeral range.
// Each case ends in a diagnosis in the words a user would search for, with the tuning that fixes
// it. The promise is that: the cause named, and the router still up. The lab is reloaded back to
// its own maxconn afterwards, also on Ctrl-C.
const { setTimeout: sleep } = require('node:timers/promises');
const { readProcFile, sysctl } = require('../core/proc');
const { isAlive } = require('../core/processes');
const { reload, adminSocket } = require('../lab/reload');
const { showStat, showInfo } = require('../lab/runtime-api');
const { checkEphemeralPorts } = require('../lab/preflight');
const { steadyPages } = require('./load');
const { checkScenario, observedCase } = require('./scenario');

const TIME_WAIT = '06';

/**
 * Connections to `port` in TIME_WAIT: { client } (held by the clients' side, remote port `port`)
 * and { router } (held by the router's side, local port `port`). On loopback both ends are on
 * this host, and either one blocks the same 4-tuple, so both count against the client's ports.
 */
function timeWaitTo(port) {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const counts = { client: 0, router: 0 };
  for (const file of ['net/tcp', 'net/tcp6']) {
    for (const line of (readProcFile('self', file) || '').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] !== TIME_WAIT) continue;
      if (f[2] && f[2].endsWith(hex)) counts.client++;
      else if (f[1] && f[1].endsWith(hex)) counts.router++;
    }
  }
  return counts;
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
  const loading = steadyPages({
    k6: ctx.k6,
    target: ctx.target,
    termination: 'http',
    connection: 'close',
    rate: opts.exhaustRate,
    durationSeconds: opts.exhaustSeconds,
    summaryPath: ctx.rawFile('exhaustion-ports.json'),
    signal: ctx.signal,
  });
  const timeWaitPeak = await peak(async () => {
    const tw = timeWaitTo(port);
    return tw.client + tw.router;
  }, loading);
  const load = await loading;
  const noResponse = load.errors['0'] || 0;
  const exhausted = noResponse > 0 && timeWaitPeak >= 0.9 * range;
  const newPerSecond = load.rps;
  const lastsSeconds = newPerSecond ? Math.round(range / newPerSecond) : null;
  const fix =
    'Fix: keep-alive (one connection for many requests); widen the range ' +
    '(sysctl -w net.ipv4.ip_local_port_range="1024 65535"); net.ipv4.tcp_tw_reuse=1 for outgoing ' +
    'connections; more client addresses (k6 --local-ips) or more load-generator hosts.';
  const diagnosis = exhausted
    ? `ephemeral port exhaustion ("cannot assign requested address", EADDRNOTAVAIL, the bank's "no free ports"): ` +
      `${timeWaitPeak} connections to the router sat in TIME_WAIT against ${range} local ports, and ${noResponse} requests ` +
      `could not even connect. It is the client's limit, not the router's. ${fix}`
    : `no ephemeral port exhaustion at ${newPerSecond} new connections/s: the client held at most ` +
      `${timeWaitPeak} connections to the router in TIME_WAIT (either side), against ${range} local ports. ` +
      (twReuse === '2' || twReuse === '1'
        ? `tcp_tw_reuse=${twReuse} lets new connections${twReuse === '2' ? ' on loopback' : ''} reuse TIME_WAIT ports. `
        : '') +
      `Without reuse, every closed connection holds its port 60 s, so about ${Math.floor(range / 60)} new ` +
      `connections/s to one router address and port exhaust them` +
      (lastsSeconds ? ` (at this rate, in ${Math.min(60, lastsSeconds)} s)` : '') +
      `, and connect() fails with "cannot assign requested address" (EADDRNOTAVAIL). ${fix}`;
  ctx.log(
    `    TIME_WAIT peak ${timeWaitPeak} (before ${before.client + before.router}); ${noResponse} requests without response`,
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
        timeWaitBefore: before,
        timeWaitAfter: timeWaitTo(port),
      },
      preflight: checkEphemeralPorts().notes?.[0] ?? checkEphemeralPorts().warnings?.[0] ?? null,
      diagnosis,
      exhausted,
      routerAlive: isAlive(ctx.state().router.pid),
    },
  });
}

module.exports = checkScenario({
  name: 'exhaustion',
  title: 'Exhaustion: maxconn and ephemeral ports',
  promise:
    'the cause named in the words a user would search for, with the tuning that fixes it; the router stays up',
  describe: (opts) =>
    `router maxconn ${opts.exhaustMaxconn} against ${opts.exhaustConnections} clients (a connection per request); ` +
    `close mode at ${opts.exhaustRate} req/s; ${opts.exhaustSeconds} s each through the http Route`,
  async inject(ctx) {
    const cases = [await maxconnCase(ctx)];
    ctx.signal?.throwIfAborted();
    cases.push(await portsCase(ctx));
    return { cases };
  },
  /** Its diagnoses in full (reliability.md and .html). */
  extras(result) {
    return result.cases.map((c) => ({ title: c.name, text: c.figures.diagnosis ?? 'nothing reproduced.' }));
  },
  verdict(observation) {
    const reasons = [];
    const notes = [];
    for (const c of observation.cases) {
      if (!c.figures.routerAlive) reasons.push(`${c.name}: the router is gone`);
      if (!c.figures.diagnosis) {
        reasons.push(
          `${c.name}: the limit was not reached (HAProxy peaked at ${c.figures.router?.currConnsPeak} connections): nothing reproduced, nothing explained`,
        );
      }
      if (c.figures.preflight) notes.push(`${c.name}: preflight says: ${c.figures.preflight}`);
    }
    return { pass: reasons.length === 0, reasons, notes };
  },
});

module.exports.timeWaitTo = timeWaitTo;
