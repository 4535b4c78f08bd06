'use strict';
// What Prometheus saw while a k6-operator TestRun ran: the router's, the data service's and the
// runners' CPU and the Route's metrics over the run's window, read as the matrix reads a sample's,
// with the router's size from the IngressController that admitted the Route.
const { oc } = require('./oc');
const names = require('./names');
const { routeName } = require('../../k6/lib/cells');
const { routesFromList, routerOf } = require('../matrix/cluster-api');
const { openMonitoring, describeMonitoring } = require('../matrix/cluster-figures');
const { readSample, waitForScrapes } = require('../load/cluster-metrics');

/**
 * The IngressController behind the cell's Route (`routes`: the project's, as oc listed them):
 * { ingressController, threads, replicas, source }.
 */
function routerOfRoute(routes, namespace, termination) {
  const name = routesFromList(routes, { namespace }).routes[termination]?.routerName || 'default';
  const got = oc(['get', 'ingresscontroller', name, '-n', 'openshift-ingress-operator', '-o', 'json'], {
    allowFail: true,
  });
  if (!got.ok)
    return {
      ingressController: name,
      threads: null,
      replicas: null,
      source: `not read: ${got.stderr.trim()}`,
    };
  return routerOf(JSON.parse(got.stdout));
}

/** The bearer token oc holds, or null. */
function ocToken() {
  const got = oc(['whoami', '-t'], { allowFail: true });
  return got.ok ? got.stdout.trim() : null;
}

/**
 * When the runners' load ended: the latest time a runner pod's k6 container finished
 * (`<testrun>-<n>-<hash>`, as the runner CPU query names them), or `fallbackMs` when none says.
 */
function runnersEndedMs(namespace, fallbackMs) {
  const got = oc(['get', 'pods', '-n', namespace, '-o', 'json'], { allowFail: true });
  if (!got.ok) return fallbackMs;
  const runner = new RegExp(`^${names.TESTRUN}-[0-9]+-`);
  const finished = JSON.parse(got.stdout)
    .items.filter((pod) => runner.test(pod.metadata.name))
    .flatMap((pod) => pod.status?.containerStatuses || [])
    .map((c) => Date.parse(c.state?.terminated?.finishedAt))
    .filter(Number.isFinite);
  return finished.length ? Math.max(...finished) : fallbackMs;
}

/**
 * Reads the run from --prometheus: { figures, prometheus, router } for mergeDirectory, or null
 * without --prometheus. `routes`: the project's, as the run listed them. The window is the run's
 * --duration up to when its runners finished (`stageEndedMs` where no pod says). Nothing here
 * throws: what fails is the figures' error.
 */
async function readTestRunFigures(opts, { namespace, routes }, stageEndedMs, { signal } = {}) {
  if (!opts.prometheus) return null;
  let router = { ingressController: 'default', threads: null, replicas: null, source: 'not read' };
  try {
    router = routerOfRoute(routes, namespace, opts.termination);
    const target = { mode: 'cluster', namespace, clusterRouter: router, kubeToken: ocToken() };
    const monitoring = openMonitoring({ ...opts, prometheusProfile: 'openshift' }, target);
    const endMs = runnersEndedMs(namespace, stageEndedMs);
    const window = { startMs: endMs - opts.durationSeconds * 1000, endMs };
    await waitForScrapes(window, monitoring.scrapeIntervalSeconds, { signal });
    const figures = await readSample(
      monitoring.client,
      {
        ...monitoring,
        termination: opts.termination,
        routeName: routeName(opts.termination),
        testRun: names.TESTRUN,
      },
      window,
    );
    return { figures, prometheus: describeMonitoring(monitoring), router };
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    const figures = {
      cores: {},
      instanceNames: [],
      router: null,
      errors: [`Prometheus not read: ${err.message}`],
    };
    return { figures, prometheus: null, router };
  }
}

module.exports = { readTestRunFigures };
