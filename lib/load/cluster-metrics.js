'use strict';
// The router and the data service on a cluster, read from Prometheus over each sample's window:
// CPU per pod (per process in the lab), the Route's responses and connections, open sessions. A
// failed or empty query is the sample's error, never thrown: the run goes on and the cell says so.
const { setTimeout: pause } = require('node:timers/promises');
const { ROUTER_METRICS } = require('./prometheus-profiles');

/** The increase of one counter series from its raw samples, counter resets included (pure). */
function counterIncrease(values) {
  let total = 0;
  for (let i = 1; i < values.length; i++) {
    const [prev, next] = [Number(values[i - 1][1]), Number(values[i][1])];
    total += next >= prev ? next - prev : next;
  }
  return total;
}

/**
 * A gauge over several series (pods, frontends), each scraped at its own moment: the sum of their
 * medians, and the sum of their largest values (an upper bound of the largest total). Pure.
 */
function gaugeSpread(series) {
  if (!series.length) return null;
  const of = (values) => values.map(([, v]) => Number(v)).sort((a, b) => a - b);
  const sum = (pick) => series.reduce((total, s) => total + pick(of(s.values)), 0);
  return { median: sum((v) => v[Math.floor(v.length / 2)]), max: sum((v) => v[v.length - 1]) };
}

// The load's first and last half second (k6 starting, the summary) are left out of the window.
const TRIM_MS = 500;

/**
 * The window Prometheus is asked about for a sample that ran from `startMs` to `endMs`: only
 * scrapes taken while the load ran, so that neither the warm-up before nor the next sample after
 * can leak in. Its rates times the sample's duration give the sample's CPU.
 */
function sampleWindow({ startMs, endMs }) {
  const atMs = endMs - TRIM_MS;
  return { atMs, rangeMs: Math.max(1, Math.floor(atMs - (startMs + TRIM_MS))) };
}

/** Raw samples of `selector` over the window: [{ metric, values }], or throws an Error. */
async function rangeOf(client, selector, window) {
  const data = await client.query(`${selector}[${window.rangeMs}ms]`, window.atMs / 1000);
  return data.result || [];
}

/** A counter series' rate per second between its first and last scrape in the window (pure). */
function seriesRate(values) {
  const seconds = Number(values[values.length - 1][0]) - Number(values[0][0]);
  return seconds > 0 ? counterIncrease(values) / seconds : 0;
}

/** Rates per series name ({ [name]: per second }) of one selector; throws naming an empty one. */
async function ratesByName(client, selector, window, seriesName) {
  const series = await rangeOf(client, selector, window);
  const scraped = series.filter((s) => s.values.length >= 2);
  if (!scraped.length) throw new Error(`no series scraped twice within the sample for ${selector}`);
  const byName = {};
  for (const s of scraped) {
    const name = seriesName(s.metric) || 'unnamed';
    byName[name] = (byName[name] || 0) + seriesRate(s.values);
  }
  return byName;
}

/** One figure, or null with its error pushed to `errors`. */
async function attempt(errors, what, read) {
  try {
    return await read();
  } catch (err) {
    errors.push(`${what}: ${err.message}`);
    return null;
  }
}

/**
 * Reads one sample's figures: { cores: { router, <pod>… } (CPU seconds per second), instanceNames,
 * router: { responsesPerSec, connectionsPerSec, currentSessions }, errors, window: the range asked
 * about, { start, end } in ISO 8601 }. `target`: {
 * profile, ingressController, namespace, termination, routeName, testRun? }; `sample`: {
 * startMs, endMs }.
 */
async function readSample(client, target, sample) {
  const { profile } = target;
  const window = sampleWindow(sample);
  const errors = [];
  const cores = {};
  const rates = (what, selector, name) =>
    attempt(errors, what, () => ratesByName(client, selector, window, name));
  const router = await rates('router CPU', profile.routerCpu(target), () => 'router');
  if (router) cores.router = router.router;
  const service = await rates('data-service CPU', profile.serviceCpu(target), profile.seriesName);
  Object.assign(cores, service || {});
  if (target.testRun && profile.runnerCpu) {
    const runners = await rates('k6 runner CPU', profile.runnerCpu(target), () => 'k6');
    if (runners) cores.k6 = runners.k6;
  }
  const total = async (what, selector) => {
    const byName = await rates(what, selector, () => 'all');
    return byName ? Math.round(byName.all) : null;
  };
  const connectionsPerSec = await total('router connections', ROUTER_METRICS.connections(target));
  // Passthrough's backend is TCP: the router sees no HTTP responses there.
  const responsesPerSec =
    target.termination === 'passthrough'
      ? null
      : await total('router responses', ROUTER_METRICS.responses(target));
  const currentSessions = await attempt(errors, 'router sessions', async () =>
    gaugeSpread(await rangeOf(client, ROUTER_METRICS.currentSessions(target), window)),
  );
  return {
    cores,
    instanceNames: Object.keys(service || {}).sort(),
    router: { responsesPerSec, connectionsPerSec, currentSessions },
    errors,
    window: {
      start: new Date(window.atMs - window.rangeMs).toISOString(),
      end: new Date(window.atMs).toISOString(),
    },
  };
}

/** Waits until Prometheus has ingested every scrape of the sample's window (one interval past it). */
async function waitForScrapes(sample, scrapeIntervalSeconds, { signal } = {}) {
  const waitMs = sampleWindow(sample).atMs + scrapeIntervalSeconds * 1000 + 250 - Date.now();
  if (waitMs > 0) await pause(waitMs, undefined, { signal });
}

module.exports = { readSample, waitForScrapes, counterIncrease, seriesRate, gaugeSpread, sampleWindow };
