'use strict';
// The cluster's side of a cell: once its samples ran, the router's and the data service's CPU and
// the router's own metrics, read from Prometheus over each sample's window and put beside what
// the runner read on this machine (the generator), so a cluster cell is reduced like a lab cell.
const { prometheusClient } = require('../load/prometheus');
const { profileNamed } = require('../load/prometheus-profiles');
const { readSample, waitForScrapes } = require('../load/cluster-metrics');
const { routeName } = require('../../k6/lib/cells');

const NO_PROMETHEUS =
  "no --prometheus: the router's and the data service's CPU were not read (docs/openshift.md, 'The router from Prometheus')";

/** What a cluster run reads Prometheus with, or null (the lab, or no --prometheus). */
function openMonitoring(opts, target) {
  if (target.mode !== 'cluster' || !opts.prometheus) return null;
  return {
    client: prometheusClient({
      url: opts.prometheus,
      token: opts.token || target.kubeToken || null,
      caFile: opts.prometheusCaFile || null,
    }),
    url: opts.prometheus,
    profile: profileNamed(opts.prometheusProfile),
    scrapeIntervalSeconds: opts.scrapeInterval,
    ingressController: target.clusterRouter?.ingressController || 'default',
    namespace: target.namespace,
  };
}

/** results.json's environment.prometheus for the run's monitoring (null without). */
function describeMonitoring(monitoring) {
  if (!monitoring) return null;
  const { url, profile, scrapeIntervalSeconds } = monitoring;
  return { url, profile: profile.name, scrapeIntervalSeconds };
}

/**
 * Adds each sample's cluster figures: `cpu.cores` of the router and of each data-service pod, and
 * `cpu.cpuSeconds` at that rate over the sample's `durationSeconds`, and `cluster`: { router, errors,
 * instanceNames, window: the range Prometheus was asked about }. Without monitoring, `cluster` says
 * why nothing was read. Resolves the pods' names, sorted. `sample.window`: { startMs, endMs } of
 * its load.
 */
async function addClusterFigures(monitoring, cell, samples, { durationSeconds, signal }) {
  if (!monitoring) {
    for (const sample of samples)
      sample.cluster = { router: null, errors: [NO_PROMETHEUS], instanceNames: [] };
    return [];
  }
  const names = new Set();
  const target = { ...monitoring, termination: cell.termination, routeName: routeName(cell.termination) };
  for (const sample of samples) {
    await waitForScrapes(sample.window, monitoring.scrapeIntervalSeconds, { signal });
    const read = await readSample(monitoring.client, target, sample.window);
    const cpu = sample.cpu || { cores: {}, cpuSeconds: {} };
    for (const [name, cores] of Object.entries(read.cores)) {
      cpu.cores[name] = cores;
      cpu.cpuSeconds[name] = cores * durationSeconds;
    }
    sample.cpu = cpu;
    const { router, errors, instanceNames, window } = read;
    sample.cluster = { router, errors, instanceNames, window };
    read.instanceNames.forEach((n) => names.add(n));
  }
  return [...names].sort();
}

module.exports = { openMonitoring, describeMonitoring, addClusterFigures, NO_PROMETHEUS };
