// The bank's workload, as its acceptance test: add / update / select records through one Route,
// open model (constant-arrival-rate), 5000 TPS by default; one iteration is one request.
//   SSL_CERT_FILE=.lab/certs/lab-ca.crt k6 run -e ROUTE=edge -e RATE=5000 k6/data-service.js
import http from 'k6/http';
import { check } from 'k6';
import { Trend } from 'k6/metrics';
import cells from './lib/cells.js';
import distribution from './lib/distribution.js';
import { errorCounters } from './lib/errors.js';
import { busyVus, vusExhausted } from './lib/generator.js';
import grammar from './lib/grammar.js';
import { envDuration, envEnum, envInt, envList, envNumber } from './lib/config.js';
import { needsInsecureTls, requireRoute, resolveTargets } from './lib/targets.js';
import { parseServerTiming } from './lib/server-timing.js';
import { summaryOutputs } from './lib/summary.js';
import { REFERENCE } from './lib/reference.js';

// Env: ROUTE (http|edge|passthrough|reencrypt, default edge), RATE (iterations/s, 5000),
// DURATION (1m), PRE_VUS (RATE/20), MAX_VUS (RATE/2), MIX (add=20,update=20,select=60),
// SEED_RECORDS (200, created in setup for select/update), MAX_ERROR_RATE (0.01), P95_MS (50),
// SUMMARY_PATH, plus the target variables of lib/targets.js. Dropped iterations (k6 had no free
// VU in time) mean the generator, not the service, fell short of the rate: they are printed and
// thresholded.
const routeKey = envEnum(__ENV, 'ROUTE', cells.TERMINATIONS, 'edge');
const rate = envInt(__ENV, 'RATE', REFERENCE.bank.targetTps, { min: 1, max: 1000000 });
const duration = envDuration(__ENV, 'DURATION', '1m');
const preVus = envInt(__ENV, 'PRE_VUS', Math.max(10, Math.ceil(rate / 20)), { min: 1 });
const maxVus = envInt(__ENV, 'MAX_VUS', Math.max(preVus, Math.ceil(rate / 2)), { min: 1 });
const seedRecords = envInt(__ENV, 'SEED_RECORDS', 200, { min: 1, max: 100000 });
const maxErrorRate = envNumber(__ENV, 'MAX_ERROR_RATE', 0.01, { min: 0, max: 1 });
const p95Ms = envNumber(__ENV, 'P95_MS', 50, { min: 0 });
const mix = parseMix(envList(__ENV, 'MIX', ['add=20', 'update=20', 'select=60']));

const targets = resolveTargets(__ENV);
const route = requireRoute(targets, routeKey);
const base = `${route.url}/api/records`;
const JSON_HEADERS = { headers: { 'Content-Type': 'application/json' } };

/** ['add=20', 'update=20', 'select=60'] → cumulative thresholds for one random draw per iteration. */
function parseMix(items) {
  const weights = { add: 0, update: 0, select: 0 };
  for (const item of items) {
    const [op, value, extra] = item.split('=');
    const weight = grammar.read('integer', value, { min: 0 });
    if (!(op in weights) || weight === undefined || extra !== undefined) {
      throw new Error(
        `MIX must look like add=20,update=20,select=60, got ${JSON.stringify(items.join(','))}`,
      );
    }
    weights[op] = weight;
  }
  const total = weights.add + weights.update + weights.select;
  if (total === 0) throw new Error(`MIX needs at least one operation with a weight above 0`);
  return { weights, addBelow: weights.add / total, updateBelow: (weights.add + weights.update) / total };
}

export const options = {
  scenarios: {
    bank: {
      executor: 'constant-arrival-rate',
      rate,
      timeUnit: '1s',
      duration,
      preAllocatedVUs: preVus,
      maxVUs: maxVus,
    },
  },
  tags: { route: routeKey, workload: 'data-service' },
  hosts: targets.hosts,
  insecureSkipTLSVerify: needsInsecureTls(routeKey),
  summaryTrendStats: distribution.TREND_STATS,
  thresholds: {
    // On the workload only: the seed records of setup() are not part of the measured run.
    'http_req_failed{scenario:bank}': [`rate<=${maxErrorRate}`],
    'http_req_duration{scenario:bank,expected_response:true}': [`p(95)<${p95Ms}`],
    'http_req_duration{op:add}': [],
    'http_req_duration{op:update}': [],
    'http_req_duration{op:select}': [],
    'service_time{op:add}': [],
    'service_time{op:update}': [],
    'service_time{op:select}': [],
    // The generator kept up with the rate only if no iteration was dropped.
    dropped_iterations: ['count==0'],
  },
};

const serviceTime = new Trend('service_time', true);
const redisTime = new Trend('redis_time', true);
const errors = errorCounters();

function record(customer) {
  return JSON.stringify({ customer, balance: Math.floor(Math.random() * 1e6) / 100, currency: 'EUR' });
}

function observe(res, op, expected) {
  const timing = parseServerTiming(res.headers['Server-Timing']);
  if (timing.app !== undefined) serviceTime.add(timing.app, { op });
  if (timing.redis !== undefined) redisTime.add(timing.redis, { op });
  if (res.status !== expected) errors.add(res.status, { op });
}

export function setup() {
  const ids = [];
  for (let i = 0; i < seedRecords; i++) {
    const res = http.post(base, record(`seed-${i}`), JSON_HEADERS);
    if (res.status !== 201) {
      throw new Error(`seeding ${base} failed with status ${res.status} ${res.error || ''}`.trim());
    }
    ids.push(res.json('id'));
  }
  return { ids };
}

export default function (data) {
  const draw = Math.random();
  const id = data.ids[Math.floor(Math.random() * data.ids.length)];
  if (draw < mix.addBelow) {
    const res = http.post(base, record(`vu-${__VU}-${__ITER}`), { ...JSON_HEADERS, tags: { op: 'add' } });
    observe(res, 'add', 201);
    check(res, { 'add: 201': (r) => r.status === 201 });
  } else if (draw < mix.updateBelow) {
    const res = http.put(`${base}/${id}`, record(`updated-${id}`), {
      ...JSON_HEADERS,
      tags: { op: 'update', name: `${base}/:id` },
    });
    observe(res, 'update', 200);
    check(res, { 'update: 200': (r) => r.status === 200 });
  } else {
    const res = http.get(`${base}/${id}`, { tags: { op: 'select', name: `${base}/:id` } });
    observe(res, 'select', 200);
    check(res, { 'select: 200': (r) => r.status === 200 });
  }
}

export function handleSummary(data) {
  const dropped = ((data.metrics.dropped_iterations || {}).values || {}).count || 0;
  const vusMax = ((data.metrics.vus_max || {}).values || {}).max || 0;
  const iterations = (data.metrics.iterations || {}).values || {};
  const iterationTime = (data.metrics.iteration_duration || {}).values || {};
  // All VUs allocated proves nothing when PRE_VUS = MAX_VUS: exhausted only when it shows.
  const exhausted = vusExhausted({
    droppedIterations: dropped,
    vusActiveMax: vusMax,
    maxVus,
    busyVus: busyVus(iterations.rate, iterationTime.avg),
  });
  const meta = { script: 'data-service', route: routeKey, url: base, rate, duration, preVus, maxVus, mix };
  const lines = [
    `  target     ${rate} TPS for ${duration}; dropped iterations ${dropped}` +
      (dropped ? ' (the generator did not keep up: this run did not prove the rate)' : ''),
    `  VUs        ${vusMax} of ${maxVus} allocated` + (exhausted ? ' (VUs exhausted: raise MAX_VUS)' : ''),
  ];
  return summaryOutputs(data, __ENV, `bank workload via ${routeKey} → ${base}`, meta, lines);
}
