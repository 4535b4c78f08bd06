'use strict';
// Prometheus metrics. Each service gets its own Registry (tests build many apps in one process).
const client = require('prom-client');

// Buckets in seconds, dense below 5 ms where this service lives (the bank measured ~1 ms); 0.5 ms
// and 2 ms are bucket bounds so the benchmark's service-time goals can be read off /metrics.
const REQUEST_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const REDIS_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.1, 0.5, 1];

// The two request-path histograms are this module's own small implementation of prom-client's
// metric interface (get/reset, registered on the Registry): observing costs a cached series
// lookup (one Map per label, no key string), a bucket scan and three additions. prom-client's
// Histogram validates and hashes the labels on every observe, which in the benchmark cost about 3%
// of the service's CPU per request. The exposition format is prom-client's own (the Registry's).
class FastHistogram {
  constructor({ name, help, labelNames, buckets }) {
    this.name = name;
    this.help = help;
    this.type = 'histogram';
    this.aggregator = 'sum';
    this.labelNames = labelNames;
    this.buckets = Float64Array.from(buckets);
    this.series = new Map();
    this.all = [];
  }

  /**
   * The series for these label values (in labelNames order), created on first use. Looked up
   * through one Map per label, so the hot path builds no key string.
   */
  seriesFor(...labelValues) {
    let level = this.series;
    const last = labelValues.length - 1;
    for (let i = 0; i < last; i++) {
      let next = level.get(labelValues[i]);
      if (next === undefined) {
        next = new Map();
        level.set(labelValues[i], next);
      }
      level = next;
    }
    let series = level.get(labelValues[last]);
    if (series === undefined) {
      const labels = {};
      this.labelNames.forEach((label, i) => (labels[label] = String(labelValues[i])));
      series = { labels, counts: new Float64Array(this.buckets.length), sum: 0, count: 0 };
      level.set(labelValues[last], series);
      this.all.push(series);
    }
    return series;
  }

  observe(series, seconds) {
    const buckets = this.buckets;
    let i = 0;
    while (i < buckets.length && seconds > buckets[i]) i++;
    if (i < buckets.length) series.counts[i] += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** prom-client's metric interface: the values the Registry renders. */
  get() {
    const values = [];
    for (const { labels, counts, sum, count } of this.all) {
      let cumulative = 0;
      for (let i = 0; i < this.buckets.length; i++) {
        cumulative += counts[i];
        values.push({
          labels: { ...labels, le: this.buckets[i] },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      }
      values.push({ labels: { ...labels, le: '+Inf' }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset() {
    this.series.clear();
    this.all = [];
  }
}

function createMetrics({ defaultMetrics = true } = {}) {
  const registry = new client.Registry();
  if (defaultMetrics) client.collectDefaultMetrics({ register: registry });

  const requestDuration = new FastHistogram({
    name: 'http_server_request_duration_seconds',
    help: 'Time from request to response headers (the Server-Timing app value), by route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: REQUEST_BUCKETS,
  });
  const redisDuration = new FastHistogram({
    name: 'redis_command_duration_seconds',
    help: 'Redis command round trip as seen by the service, by command and outcome',
    labelNames: ['command', 'outcome'],
    buckets: REDIS_BUCKETS,
  });
  registry.registerMetric(requestDuration);
  registry.registerMetric(redisDuration);
  // A passthrough Route's client resumes only where its session ticket decrypts: this says whether
  // it did (the router cannot see it, the TLS being the service's).
  const tlsSessions = new client.Counter({
    name: 'data_service_tls_sessions_total',
    help: 'TLS sessions set up on the HTTPS listener: new (a full handshake) or resumed',
    labelNames: ['session'],
    registers: [registry],
  });

  return {
    registry,
    /** route is the route template (bounded cardinality), never the raw path. */
    observeRequest(method, route, status, seconds) {
      requestDuration.observe(requestDuration.seriesFor(method, route, status), seconds);
    },
    observeRedis(command, outcome, seconds) {
      redisDuration.observe(redisDuration.seriesFor(command, outcome), seconds);
    },
    observeTlsSession(resumed) {
      tlsSessions.inc({ session: resumed ? 'resumed' : 'new' });
    },
  };
}

module.exports = { createMetrics, FastHistogram };
