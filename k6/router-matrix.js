// One cell of the router matrix: termination × page size × connection mode against GET
// /api/pages/:size through one Route. `npm run matrix` starts one k6 process per cell; alone:
//   k6 run -e TERMINATION=edge -e PAGE_SIZE=4k -e CONNECTION=close k6/router-matrix.js
import http from 'k6/http';
import { Counter, Rate, Trend } from 'k6/metrics';
import cells from './lib/cells.js';
import distribution from './lib/distribution.js';
import { defaultMaxVus, READY_LINE } from './lib/generator.js';
import { errorCounters } from './lib/errors.js';
import { PROTOCOL_METRICS, OTHER_PROTOCOL_METRIC } from './lib/protocols.js';
import { envBool, envDuration, envInt, envNumber } from './lib/config.js';
import { needsInsecureTls, requireRoute, resolveTargets } from './lib/targets.js';
import { parseServerTiming } from './lib/server-timing.js';
import { summaryOutputs } from './lib/summary.js';

// Env: TERMINATION (http|edge|passthrough|reencrypt), PAGE_SIZE (1k, 4k, …), CONNECTION
// (keepalive|close), TLS_SESSION (full: the only kind k6 can do, see below), VUS (closed model,
// default 32), DURATION (default 30s), RATE (open model: constant-arrival-rate at RATE req/s with
// MAX_VUS), MAX_ERROR_RATE (0.01), P99_MS (1000), SUMMARY_PATH (raw summary JSON),
// INSECURE_SKIP_TLS_VERIFY (false), plus the target variables of lib/targets.js.
// Trust: run with SSL_CERT_FILE=<lab CA> so edge and re-encrypt are verified; only passthrough,
// whose service certificate cannot match the route host, skips verification, unless
// INSECURE_SKIP_TLS_VERIFY=true (a cluster whose router has a self-signed certificate).
// The cell's axes, each from its variable (k6/lib/axes.js declares them and their defaults).
const cell = cells.readCellVariables(__ENV);
const { termination, pageSize: pageBytes, connection } = cell;
// k6 keeps no TLS session cache: each new connection of a close cell does a full handshake. A
// resumed close cell needs a generator that resumes (the matrix runs wrk for those).
if (cell.tlsSession === 'resumed') {
  throw new Error('TLS_SESSION=resumed: k6 keeps no TLS session cache, so it cannot resume; use wrk');
}
const vus = envInt(__ENV, 'VUS', 32, { min: 1, max: 100000 });
const duration = envDuration(__ENV, 'DURATION', '30s');
const rate = envInt(__ENV, 'RATE', 0, { min: 0, max: 10000000 });
const maxVus = envInt(__ENV, 'MAX_VUS', defaultMaxVus(vus, rate), { min: 1 });
const maxErrorRate = envNumber(__ENV, 'MAX_ERROR_RATE', 0.01, { min: 0, max: 1 });
const p99Ms = envNumber(__ENV, 'P99_MS', 1000, { min: 0 });
const insecure = envBool(__ENV, 'INSECURE_SKIP_TLS_VERIFY', false) || needsInsecureTls(termination);

const targets = resolveTargets(__ENV);
const route = requireRoute(targets, termination);
const url = `${route.url}/api/pages/${cells.sizeLabel(pageBytes)}`;
const tags = cells.cellTags(cell);
const close = connection === 'close';

const scenario = rate
  ? {
      executor: 'constant-arrival-rate',
      rate,
      timeUnit: '1s',
      duration,
      preAllocatedVUs: vus,
      maxVUs: maxVus,
    }
  : { executor: 'constant-vus', vus, duration };

const OK = 'expected_response:true';
export const options = {
  scenarios: { cell: scenario },
  tags,
  hosts: targets.hosts,
  insecureSkipTLSVerify: insecure,
  // close: no keep-alive at all, so every request opens a new TCP connection and, over TLS, does
  // a full handshake (Go's client keeps no TLS session cache here, so nothing is resumed).
  noConnectionReuse: close,
  noVUConnectionReuse: close,
  discardResponseBodies: true,
  summaryTrendStats: distribution.TREND_STATS,
  thresholds: {
    // Pass/fail per cell, on the cell's own sub-metrics (tag values may contain ':').
    // request_failed, not http_req_failed: that one counts a 3xx or a page of the wrong size as
    // a success.
    [`request_failed{cell:${tags.cell}}`]: [`rate<=${maxErrorRate}`],
    [`http_req_duration{cell:${tags.cell},${OK}}`]: [`p(99)<${p99Ms}`],
    // Declared so that the summary carries them: the latency decomposition of successful requests.
    [`http_req_duration{${OK}}`]: [],
    [`http_req_connecting{${OK}}`]: [],
    [`http_req_tls_handshaking{${OK}}`]: [],
    [`http_req_waiting{${OK}}`]: [],
    [`http_req_receiving{${OK}}`]: [],
    [`http_req_blocked{${OK}}`]: [],
    service_time: [],
    router_time: [],
    tls_handshake: [],
    request_total: [],
  },
};

// k6's http_req_duration starts after the connection is ready; with CONNECTION=close, the
// client also waits for TCP and TLS set-up on every request. request_total (blocked + duration,
// successful responses) is what the client lived through, and the latency the report shows.
const requestTotal = new Trend('request_total', true);
// Time inside the service (Server-Timing app;dur).
const serviceTime = new Trend('service_time', true);
// What the router and the network add, per request: time to first byte minus service time. Its
// own distribution, because a difference of two percentiles is not a percentile.
const routerTime = new Trend('router_time', true);
// TLS handshake time of the requests that did one (with keep-alive, one per connection), so
// the average is per handshake instead of being diluted by the requests that reused a connection.
const tlsHandshake = new Trend('tls_handshake', true);
// The script's own verdict per request: a 200 of the expected size, nothing else.
const requestFailed = new Rate('request_failed');
const errors = errorCounters();
const errorsWrongSize = new Counter('errors_wrong_size');
// Responses per HTTP protocol: a router that offers h2 turns an HTTP/1.1 benchmark into another one.
const protocolCounters = Object.fromEntries(
  Object.entries(PROTOCOL_METRICS).map(([proto, metric]) => [proto, new Counter(metric)]),
);
const otherProtocol = new Counter(OTHER_PROTOCOL_METRIC);

function wrongSize(res) {
  const length = res.headers['Content-Length'];
  return length !== undefined && Number(length) !== pageBytes;
}

// k6 runs setup() once it traps SIGINT, before the first VU's iteration (setup's own, a log line,
// is one more in iteration_duration's thousands).
export function setup() {
  console.log(READY_LINE);
}

export default function () {
  const res = http.get(url);
  if (res.proto) (protocolCounters[res.proto] || otherProtocol).add(1);
  if (res.status !== 200 || wrongSize(res)) {
    requestFailed.add(true);
    if (res.status === 200) errorsWrongSize.add(1);
    else errors.add(res.status);
    return;
  }
  requestFailed.add(false);
  requestTotal.add(res.timings.blocked + res.timings.duration);
  if (res.timings.tls_handshaking > 0) tlsHandshake.add(res.timings.tls_handshaking);
  const app = parseServerTiming(res.headers['Server-Timing']).app;
  if (app !== undefined) {
    serviceTime.add(app);
    routerTime.add(Math.max(0, res.timings.waiting - app));
  }
}

export function handleSummary(data) {
  const meta = {
    script: 'router-matrix',
    cell: tags.cell,
    ...cells.valuesOf(cell),
    generator: 'k6',
    url,
    target: targets.mode,
    executor: scenario.executor,
    vus,
    maxVus: rate ? maxVus : vus,
    rate: rate || null,
    duration,
    tlsVerify: route.scheme === 'https' ? !insecure : null,
  };
  return summaryOutputs(data, __ENV, `cell ${tags.cell} → ${url}`, meta);
}
