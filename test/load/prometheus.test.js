'use strict';
// The OpenShift profile's queries against a real Prometheus loaded with series that carry
// OpenShift's label names (cAdvisor's and the router's), and the token refusals of a querier in
// front of it, each said as the figure's error.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { prometheusClient } = require('../../lib/load/prometheus');
const { PROFILES } = require('../../lib/load/prometheus-profiles');
const { readSample } = require('../../lib/load/cluster-metrics');
const { startPrometheus, startBearerProxy } = require('../support/prometheus');

jest.setTimeout(60000);

// Ten minutes of scrapes every 30 s, ending two hours ago (clear of the head block).
const STEP_S = 30;
const END_S = Math.floor(Date.now() / 1000 / STEP_S) * STEP_S - 7200;
const START_S = END_S - 600;

/**
 * One counter series rising at `perSec`; `resetAt` (s from start): the process restarted just
 * after the scrape before, so the counter holds only what it used since.
 */
function counter(name, labels, perSec, { resetAt = null } = {}) {
  const text = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const lines = [];
  let value = 1000;
  for (let t = START_S; t <= END_S; t += STEP_S) {
    if (resetAt !== null && t - START_S === resetAt) value = perSec * STEP_S;
    lines.push(`${name}{${text}} ${value} ${t}`);
    value += perSec * STEP_S;
  }
  return lines;
}

const gauge = (name, labels, value) => counter(name, labels, 0).map((l) => l.replace(/ 1000 /, ` ${value} `));

const cpu = 'container_cpu_usage_seconds_total';
const routerPods = ['router-default-7d9f-a', 'router-default-7d9f-b'].map((pod) => ({
  namespace: 'openshift-ingress',
  pod,
}));
const SERIES = [
  // Two router pods of the default IngressController, one restarted midway; its pod-level series,
  // another IngressController's pod and the data-service pods' pod-level series must not count.
  ...counter(cpu, { namespace: 'openshift-ingress', pod: 'router-default-7d9f-a', container: 'router' }, 0.5),
  ...counter(
    cpu,
    { namespace: 'openshift-ingress', pod: 'router-default-7d9f-b', container: 'router' },
    0.5,
    {
      resetAt: 300,
    },
  ),
  ...counter(cpu, { namespace: 'openshift-ingress', pod: 'router-default-7d9f-a', container: '' }, 0.6),
  ...counter(cpu, { namespace: 'openshift-ingress', pod: 'router-sharded-5c-x', container: 'router' }, 3),
  ...counter(cpu, { namespace: 'router-lab', pod: 'data-service-6b-1', container: 'data-service' }, 0.25),
  ...counter(cpu, { namespace: 'router-lab', pod: 'data-service-6b-2', container: 'data-service' }, 0.25),
  ...counter(cpu, { namespace: 'router-lab', pod: 'data-service-6b-1', container: '' }, 0.3),
  ...counter(cpu, { namespace: 'router-lab', pod: 'router-matrix-1-xk2p', container: 'k6' }, 0.8),
  ...counter(cpu, { namespace: 'router-lab', pod: 'router-matrix-initializer-q7', container: 'k6' }, 2),
  // The router's own metrics as OpenShift's monitoring labels them (the Route's namespace is
  // exported_namespace), from two router pods, and a sharded IngressController's that must not count.
  ...routerPods.flatMap((pod) => [
    ...counter(
      'haproxy_backend_http_responses_total',
      {
        ...pod,
        exported_namespace: 'router-lab',
        route: 'data-service-edge',
        backend: 'https-edge',
        code: '2xx',
      },
      500,
    ),
    ...counter(
      'haproxy_backend_connections_total',
      { ...pod, exported_namespace: 'router-lab', route: 'data-service-edge', backend: 'https-edge' },
      20,
    ),
    ...gauge('haproxy_frontend_current_sessions', { ...pod, frontend: 'fe_sni' }, 25),
    ...gauge('haproxy_frontend_current_sessions', { ...pod, frontend: 'public_ssl' }, 5),
  ]),
  ...gauge(
    'haproxy_frontend_current_sessions',
    { namespace: 'openshift-ingress', pod: 'router-sharded-5c-x', frontend: 'fe_sni' },
    900,
  ),
  '# EOF',
  '',
].join('\n');

const target = {
  profile: PROFILES.openshift,
  ingressController: 'default',
  namespace: 'router-lab',
  termination: 'edge',
  routeName: 'data-service-edge',
  testRun: 'router-matrix',
};
// A five-minute sample in the middle of the series.
const sample = { startMs: (START_S + 120) * 1000, endMs: (START_S + 420) * 1000 };

let dir;
let prometheus;
let proxy;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-prometheus-'));
  prometheus = await startPrometheus(dir, { openMetrics: SERIES });
  proxy = await startBearerProxy(dir, prometheus.url);
});
afterAll(async () => {
  await proxy?.stop();
  await prometheus?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the OpenShift profile reads the router's pods, the data service's and the k6 runners' CPU, and the Route's metrics", async () => {
  const read = await readSample(prometheusClient({ url: prometheus.url }), target, sample);
  expect(read.errors).toEqual([]);
  expect(read.cores.router).toBeCloseTo(1.0, 5);
  expect(read.cores['data-service-6b-1']).toBeCloseTo(0.25, 5);
  expect(read.cores['data-service-6b-2']).toBeCloseTo(0.25, 5);
  expect(read.cores.k6).toBeCloseTo(0.8, 5);
  expect(read.instanceNames).toEqual(['data-service-6b-1', 'data-service-6b-2']);
  expect(read.router).toEqual({
    responsesPerSec: 1000,
    connectionsPerSec: 40,
    currentSessions: { median: 60, max: 60 },
  });
  // The range asked about: the sample less its first and last half second.
  expect(read.window).toEqual({
    start: new Date(sample.startMs + 500).toISOString(),
    end: new Date(sample.endMs - 500).toISOString(),
  });
});

test('a token the querier refuses, and one without the role, are said as such', async () => {
  const as = (token) => readSample(prometheusClient({ url: proxy.url, token }), target, sample);
  const refused = await as('wrong');
  expect(refused.errors[0]).toBe(
    `router CPU: Prometheus at ${proxy.url} refused the token (401 Unauthorized): pass --token, or 'oc whoami -t'`,
  );
  expect(refused.cores).toEqual({});
  const noRole = await as('no-role');
  expect(noRole.errors[0]).toMatch(
    /refused access \(403 Forbidden\): the user needs the cluster-monitoring-view role/,
  );
  expect((await as('good')).cores.router).toBeCloseTo(1.0, 5);
});

test('a namespace with no series is said per figure, not guessed', async () => {
  const read = await readSample(
    prometheusClient({ url: prometheus.url }),
    { ...target, namespace: 'elsewhere' },
    sample,
  );
  expect(Object.keys(read.cores)).toEqual(['router']);
  expect(read.errors).toEqual([
    expect.stringMatching(
      /^data-service CPU: no series scraped twice within the sample for container_cpu_usage_seconds_total\{namespace="elsewhere"/,
    ),
    expect.stringMatching(/^k6 runner CPU: no series/),
    expect.stringMatching(/^router connections: no series/),
    expect.stringMatching(/^router responses: no series/),
  ]);
});
