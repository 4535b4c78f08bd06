'use strict';
// npm run cluster:k6's work: one router-matrix cell run in the cluster by the k6-operator's
// TestRun, its runners' summaries copied off the results PVC and merged into one results.json.
const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const yaml = require('../core/dependency').lazyDependency('js-yaml');
const { runDir } = require('../core/paths');
const { RESULTS_FILE } = require('../results-model/document');
const { describeMerged } = require('../report/console');
const { formatCellTable } = require('../report/tables');
const names = require('./names');
const { HTTP1_ONLY } = require('../load/k6');
const { compose, componentDir } = require('./kustomize');
const { OcError, oc, requireLogin, resolveNamespace, serves } = require('./oc');
const { routeUrls } = require('./routes');
const { readTestRunFigures } = require('./testrun-figures');
const { mergeDirectory, writeClusterFigures } = require('./merge-runners');

const log = (msg) => console.log(`cluster:k6: ${msg}`);
const READER_POD = path.join(componentDir('k6-testrun'), 'results-reader-pod.yaml');

/** Refuses an --images entry that changed no image of the TestRun (kustomize ignores it silently). */
function checkImagesUsed(images, testRun) {
  const used = [testRun.spec.runner.image, testRun.spec.starter?.image].filter(Boolean);
  for (const image of images) {
    const wanted = image.newTag ? `${image.newName}:${image.newTag}` : image.newName;
    if (
      !used.some(
        (u) => u === wanted || u.startsWith(`${image.newName}:`) || u.startsWith(`${image.newName}@`),
      )
    ) {
      throw new OcError(
        `--images: '${image.name}' names no image of the TestRun (its images: docker.io/grafana/k6, ghcr.io/grafana/k6-operator)`,
      );
    }
  }
}

/** The k6-testrun component's objects, with this run's cell, targets and parallelism filled in. */
function renderObjects(opts, urls, runId, { kustomize = (dir) => oc(['kustomize', dir]) } = {}) {
  const composed = compose({ overlay: 'all', components: ['k6-testrun'], images: opts.images || [] });
  let objects;
  try {
    objects = yaml.loadAll(kustomize(composed.dir)).filter(Boolean);
  } finally {
    composed.cleanup();
  }
  // Only what the component adds: the lab itself is cluster:deploy's business.
  const wanted = objects.filter(
    (o) =>
      o.kind === 'TestRun' ||
      (o.kind === 'PersistentVolumeClaim' && o.metadata.name === names.RESULTS_PVC) ||
      (o.kind === 'ConfigMap' && /^k6-/.test(o.metadata.name)),
  );
  const testRun = wanted.find((o) => o.kind === 'TestRun');
  checkImagesUsed(opts.images || [], testRun);
  testRun.spec.parallelism = opts.parallelism;
  testRun.spec.separate = opts.separate;
  if (opts.runnerCpu) testRun.spec.runner.resources.requests.cpu = opts.runnerCpu;
  const set = { TERMINATION: opts.termination, PAGE_SIZE: opts['page-size'], CONNECTION: opts.connection };
  Object.assign(set, { VUS: String(opts.vus), DURATION: opts.duration });
  // The total: each runner's script scales the arrival rate to its execution segment.
  if (opts.rate) set.RATE = String(opts.rate);
  // The Routes' admitted hosts, so a sharded router (spec.subdomain) works as well as the default.
  for (const u of urls) if (u.url) set[u.envName] = u.url;
  // The router-matrix script's own variable: it also records that verification was skipped.
  if (opts.insecure) set.INSECURE_SKIP_TLS_VERIFY = 'true';
  // Its cell is an h1 one (the protocol axis's default): Go's HTTP/2 client off, as the matrix
  // holds k6 to HTTP/1.1 (lib/load/k6.js), where the router offers h2 (default-enable-http2).
  if (opts.termination !== 'http') set.GODEBUG = HTTP1_ONLY;
  // The PVC outlives runs: this run's files carry its id. POD_NAME is defined earlier in env.
  set.SUMMARY_PATH = `/results/${runId}-$(POD_NAME).json`;
  const env = testRun.spec.runner.env.filter((e) => !(e.name in set));
  testRun.spec.runner.env = [...env, ...Object.entries(set).map(([name, value]) => ({ name, value }))];
  return wanted;
}

/** The Pod that reads the results PVC (overlays/components/k6-testrun), running `image`. */
function readerPod(image) {
  const pod = yaml.load(fs.readFileSync(READER_POD, 'utf8'));
  pod.spec.containers[0].image = image;
  return pod;
}

/** What to change for a pod the scheduler cannot place, from its reason; null: wait (it may pass). */
function placementAdvice(message) {
  if (/Insufficient (cpu|memory)/.test(message))
    return 'fewer runners (--parallelism) or a smaller --runner-cpu';
  if (/anti-affinity/.test(message)) return 'fewer runners than nodes, or leave out --separate';
  // An unbound PVC (storage still provisioning), a node being added: these pass by themselves.
  return null;
}

/**
 * A runner the scheduler cannot place for a reason that will not pass, as an error that says what
 * to change; or null.
 */
function unschedulable(namespace) {
  const pods = oc(['get', 'pods', '-n', namespace, '-l', `k6_cr=${names.TESTRUN}`, '-o', 'json'], {
    allowFail: true,
  });
  if (!pods.ok) return null;
  for (const pod of JSON.parse(pods.stdout).items) {
    const c = (pod.status.conditions || []).find((x) => x.type === 'PodScheduled' && x.status === 'False');
    const advice = c?.reason === 'Unschedulable' ? placementAdvice(c.message) : null;
    if (advice) {
      const err = new OcError(`${pod.metadata.name} cannot be placed: ${c.message} (${advice})`);
      err.nothingRan = true;
      return err;
    }
  }
  return null;
}

/** How long a TestRun may go without a stage before the operator counts as absent. */
const PICKUP_MS = 60000;

async function waitForStage(namespace, timeoutSeconds, signal) {
  const started = Date.now();
  const deadline = started + timeoutSeconds * 1000;
  const query = ['get', 'testrun', names.TESTRUN, '-n', namespace, '-o', 'jsonpath={.status.stage}'];
  let last = null;
  for (;;) {
    const stage = oc(query, { allowFail: true }).stdout.trim();
    if (stage !== last) {
      log(`stage: ${stage || '(pending)'}`);
      last = stage;
    }
    if (stage === 'finished') return;
    if (stage === 'error')
      throw new OcError(`the TestRun failed: oc describe testrun ${names.TESTRUN} -n ${namespace}`);
    const stuck = stage === 'initialization' || stage === 'created' ? unschedulable(namespace) : null;
    if (stuck) throw stuck;
    // The TestRun API is served (checkCluster), but no operator acted on it: not running, or
    // watching other namespaces.
    if (!stage && Date.now() - started > PICKUP_MS) {
      const err = new OcError(
        `no k6-operator picked up TestRun ${names.TESTRUN} in ${PICKUP_MS / 1000} s: is its pod running, and does it watch ${namespace}?`,
      );
      err.nothingRan = true;
      throw err;
    }
    if (Date.now() > deadline) throw new OcError(`the TestRun did not finish within ${timeoutSeconds} s`);
    await sleep(2000, undefined, { signal });
  }
}

/** Copies this run's /results/*.json off the PVC through a short-lived pod that mounts it. */
function collect(namespace, outDir, image, runId) {
  const spec = readerPod(image);
  const pod = spec.metadata.name;
  const inPod = (...command) => oc(['exec', pod, '-n', namespace, '--', ...command]);
  oc(['delete', 'pod', pod, '-n', namespace, '--ignore-not-found', '--wait']);
  oc(['apply', '-n', namespace, '-f', '-'], { input: JSON.stringify(spec) });
  try {
    oc(['wait', '--for=condition=Ready', `pod/${pod}`, '-n', namespace, '--timeout=180s']);
    const files = inPod('ls', '/results')
      .split('\n')
      .map((f) => f.trim())
      .filter((f) => f.startsWith(`${runId}-`) && f.endsWith('.json'));
    fs.mkdirSync(outDir, { recursive: true });
    for (const f of files) fs.writeFileSync(path.join(outDir, f), inPod('cat', `/results/${f}`));
    return files;
  } finally {
    oc(['delete', 'pod', pod, '-n', namespace, '--ignore-not-found', '--wait=false'], { allowFail: true });
  }
}

function printMerged(dir, results) {
  console.log(`${describeMerged(results)}\n\n${formatCellTable(results)}\n`);
  log(`results in ${path.join(dir, RESULTS_FILE)}; the report: npm run report -- ${dir}`);
}

/** The project, checked: the TestRun API is served and the cell's Route is admitted. */
function checkCluster(opts) {
  log(`logged in as ${requireLogin()}`);
  const namespace = resolveNamespace(opts.namespace);
  if (!serves('k6.io', 'testruns')) {
    throw new OcError(
      'the cluster has no TestRun API: install the k6-operator (OperatorHub "k6 Operator") first',
    );
  }
  const routes = JSON.parse(oc(['get', 'routes', '-n', namespace, '-o', 'json'])).items;
  const urls = routeUrls(routes);
  if (!urls.some((u) => u.termination === opts.termination && u.url)) {
    throw new OcError(
      `no admitted ${opts.termination} route in ${namespace}: run npm run cluster:deploy first`,
    );
  }
  return { namespace, urls, routes };
}

/** Applies the TestRun, waits for it, copies the runners' summaries and merges them. */
async function runTestRun({ opts, namespace, routes, objects, runId, signal }) {
  oc(['delete', 'testrun', names.TESTRUN, '-n', namespace, '--ignore-not-found', '--wait']);
  const cell = `${opts.termination} ${opts['page-size']} ${opts.connection}`;
  const load = opts.rate ? `${opts.rate} req/s in total` : `${opts.vus} VUs`;
  log(`TestRun: ${opts.parallelism} runners, ${cell}, ${load} for ${opts.duration}`);
  oc(['apply', '-n', namespace, '-f', '-'], { input: objects.map((o) => JSON.stringify(o)).join('\n') });
  await waitForStage(namespace, opts.timeout, signal);
  // Where the runner pods do not say when they finished (./testrun-figures.js).
  const endedMs = Date.now();
  signal?.throwIfAborted();
  const outDir = runDir(opts.out, `cluster-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const image = objects.find((o) => o.kind === 'TestRun').spec.runner.image;
  const files = collect(namespace, outDir, image, runId);
  if (!files.length) throw new OcError(`the runners left no summary on the PVC ${names.RESULTS_PVC}`);
  log(`${files.length} runner summaries in ${outDir}`);
  if (files.length < opts.parallelism) {
    log(`warning: ${opts.parallelism} runners ran but only ${files.length} summaries were found`);
  }
  if (opts.prometheus) log(`reading the router's CPU from ${opts.prometheus}`);
  const cluster = await readTestRunFigures(opts, { namespace, routes }, endedMs, { signal });
  for (const error of cluster?.figures.errors || []) log(`warning: ${error}`);
  if (cluster) writeClusterFigures(outDir, cluster);
  printMerged(outDir, mergeDirectory(outDir, { files, namespace, cluster }));
}

/**
 * cluster:k6 with its options (lib/cluster/options.js K6): with --merge only the merge of a
 * directory; otherwise the run. An abort of `signal` deletes the TestRun, which stops the runners.
 */
async function clusterK6(opts, { signal } = {}) {
  if (opts.merge) {
    const dir = path.resolve(opts.merge);
    return printMerged(dir, mergeDirectory(dir));
  }
  const { namespace, urls, routes } = checkCluster(opts);
  const runId = `run-${Date.now().toString(36)}`;
  const objects = renderObjects(opts, urls, runId);
  try {
    await runTestRun({ opts, namespace, routes, objects, runId, signal });
  } catch (err) {
    // Interrupted, or a run that will never start; a failed TestRun stays for oc describe.
    if (err.name === 'AbortError' || err.nothingRan) {
      // collect() cleans up its own reader pod.
      const del = ['delete', 'testrun', names.TESTRUN, '-n', namespace, '--ignore-not-found', '--wait=false'];
      oc(del, { allowFail: true });
    }
    throw err;
  }
}

module.exports = { renderObjects, readerPod, clusterK6, placementAdvice };
