'use strict';
// The service's own histogram must render exactly what prom-client's Histogram renders for the
// same observations (same buckets, sums, counts and le semantics), only cheaper to observe.
const client = require('prom-client');
const { FastHistogram, createMetrics } = require('../src/metrics');

/** Sample lines sorted, with the labels of each line in a canonical order. */
function canonical(text) {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^(\w+)\{(.*)\} (.*)$/.exec(line);
      if (!m) return line;
      const labels = m[2].match(/\w+="[^"]*"/g).sort();
      return `${m[1]}{${labels.join(',')}} ${Number(m[3])}`;
    })
    .sort();
}

test('renders the same samples as prom-client Histogram, including values on a bucket bound', async () => {
  const buckets = [0.001, 0.005, 0.01];
  const reference = new client.Registry();
  const theirs = new client.Histogram({
    name: 'h_seconds',
    help: 'h',
    labelNames: ['route', 'status'],
    buckets,
    registers: [reference],
  });
  const ours = new client.Registry();
  const mine = new FastHistogram({ name: 'h_seconds', help: 'h', labelNames: ['route', 'status'], buckets });
  ours.registerMetric(mine);

  const observations = [
    ['/a', 200, 0.0004],
    ['/a', 200, 0.001],
    ['/a', 200, 0.007],
    ['/a', 500, 2],
    ['/b', 404, 0.005],
    ['/b', 404, 0.0051],
  ];
  for (const [route, status, seconds] of observations) {
    theirs.labels(route, String(status)).observe(seconds);
    mine.observe(mine.seriesFor(route, status), seconds);
  }
  expect(canonical(await ours.metrics())).toEqual(canonical(await reference.metrics()));
  expect(await ours.metrics()).toMatch(/^# TYPE h_seconds histogram$/m);

  mine.reset();
  expect(canonical(await ours.metrics())).toEqual([]);
});

test('createMetrics registers both histograms and the default process metrics', async () => {
  const metrics = createMetrics();
  metrics.observeRequest('GET', '/api/pages/:size', 200, 0.0002);
  metrics.observeRedis('get', 'ok', 0.0001);
  const text = await metrics.registry.metrics();
  expect(text).toMatch(
    /^http_server_request_duration_seconds_bucket\{method="GET",route="\/api\/pages\/:size",status="200",le="0\.00025"\} 1$/m,
  );
  expect(text).toMatch(/^redis_command_duration_seconds_count\{command="get",outcome="ok"\} 1$/m);
  expect(text).toMatch(/^process_cpu_seconds_total /m);
  expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
});
