// One cell of the router matrix: termination × page size × connection mode against
// GET /api/pages/:size through one Route. The matrix runner (npm run matrix) starts one k6
// process per cell; on its own:
//
//   k6 run -e TERMINATION=edge -e PAGE_SIZE=4k -e CONNECTION=close k6/router-matrix.js
//
// Env: TERMINATION (http|edge|passthrough|reencrypt), PAGE_SIZE (1k, 4k, …), CONNECTION
// (keepalive|close), VUS (closed model, default 32), DURATION (default 30s), RATE (open model:
// constant-arrival-rate at RATE req/s with MAX_VUS), MAX_ERROR_RATE (0.01), P99_MS (1000),
// SUMMARY_PATH (raw summary JSON), plus the target variables of lib/targets.js.
// Trust: run with SSL_CERT_FILE=<lab CA> so edge and re-encrypt are verified; only passthrough,
// whose service certificate cannot match the route host, skips verification.
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import cells from './lib/cells.js';
import distribution from './lib/distribution.js';
import { envDuration, envEnum, envInt, envNumber, envString } from './lib/config.js';
import { needsInsecureTls, requireRoute, resolveTargets } from './lib/targets.js';
import { parseServerTiming } from './lib/server-timing.js';
import { summaryOutputs } from './lib/summary.js';

const termination = envEnum(__ENV, 'TERMINATION', cells.TERMINATIONS, 'http');
const pageBytes = cells.parseSize(envString(__ENV, 'PAGE_SIZE', '1k'));
const connection = envEnum(__ENV, 'CONNECTION', cells.CONNECTIONS, 'keepalive');
const vus = envInt(__ENV, 'VUS', 32, { min: 1, max: 100000 });
const duration = envDuration(__ENV, 'DURATION', '30s');
const rate = envInt(__ENV, 'RATE', 0, { min: 0, max: 10000000 });
const maxVus = envInt(__ENV, 'MAX_VUS', Math.max(vus, rate ? Math.ceil(rate / 10) : vus), { min: 1 });
const maxErrorRate = envNumber(__ENV, 'MAX_ERROR_RATE', 0.01, { min: 0, max: 1 });
const p99Ms = envNumber(__ENV, 'P99_MS', 1000, { min: 0 });

const targets = resolveTargets(__ENV);
const route = requireRoute(targets, termination);
const url = `${route.url}/api/pages/${cells.sizeLabel(pageBytes)}`;
const tags = cellTags();
const close = connection === 'close';

function cellTags() {
  return cells.cellTags(termination, pageBytes, connection);
}

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
  insecureSkipTLSVerify: needsInsecureTls(termination),
  // close: no keep-alive at all, so every request opens a new TCP connection and, over TLS, does
  // a full handshake (Go's client keeps no TLS session cache here, so nothing is resumed).
  noConnectionReuse: close,
  noVUConnectionReuse: close,
  discardResponseBodies: true,
  summaryTrendStats: distribution.TREND_STATS,
  thresholds: {
    // Pass/fail per cell, on the cell's own sub-metrics (tag values may contain ':').
    [`http_req_failed{cell:${tags.cell}}`]: [`rate<=${maxErrorRate}`],
    [`http_req_duration{cell:${tags.cell},${OK}}`]: [`p(99)<${p99Ms}`],
    // Declared so that the summary carries them: the latency decomposition of successful requests.
    [`http_req_duration{${OK}}`]: [],
    [`http_req_connecting{${OK}}`]: [],
    [`http_req_tls_handshaking{${OK}}`]: [],
    [`http_req_waiting{${OK}}`]: [],
    [`http_req_receiving{${OK}}`]: [],
    [`http_req_blocked{${OK}}`]: [],
    service_time: [],
    request_total: [],
  },
};

// k6's http_req_duration starts after the connection is ready; with CONNECTION=close, the
// client also waits for TCP and TLS set-up on every request. request_total (blocked + duration,
// successful responses) is what the client lived through, and the latency the report shows.
const requestTotal = new Trend('request_total', true);
// Time inside the service (Server-Timing app;dur): what the router and network add is the rest.
const serviceTime = new Trend('service_time', true);
// Errors by status (0: no HTTP response at all, e.g. refused, reset, timeout, TLS failure), kept
// apart so a report can say what failed. Counted only on the error path, which costs nothing
// on success.
const ERROR_STATUSES = [0, 400, 403, 404, 408, 413, 429, 500, 502, 503, 504];
const errorsByStatus = {};
for (const status of ERROR_STATUSES) errorsByStatus[status] = new Counter(`errors_status_${status}`);
const errorsOtherStatus = new Counter('errors_status_other');
const errorsWrongSize = new Counter('errors_wrong_size');

export default function () {
  const res = http.get(url);
  if (res.status !== 200) {
    (errorsByStatus[res.status] || errorsOtherStatus).add(1);
    return;
  }
  requestTotal.add(res.timings.blocked + res.timings.duration);
  const length = res.headers['Content-Length'];
  if (length !== undefined && Number(length) !== pageBytes) errorsWrongSize.add(1);
  const app = parseServerTiming(res.headers['Server-Timing']).app;
  if (app !== undefined) serviceTime.add(app);
}

export function handleSummary(data) {
  const meta = {
    script: 'router-matrix',
    cell: tags.cell,
    termination,
    pageSize: pageBytes,
    connection,
    url,
    target: targets.mode,
    executor: scenario.executor,
    vus,
    maxVus: rate ? maxVus : vus,
    rate: rate || null,
    duration,
    tlsVerify: route.scheme === 'https' ? !needsInsecureTls(termination) : null,
  };
  return summaryOutputs(data, __ENV, `cell ${tags.cell} → ${url}`, meta);
}
