#!/usr/bin/env node
'use strict';
// Runs one router-matrix cell from inside the cluster with the k6-operator: N k6 runners, the same
// k6/ scripts, each runner's summary copied back to results/ and merged into a results.json of one
// cell that npm run report renders. See --help and docs/openshift.md.
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const yaml = require('js-yaml');
const { RESULTS_DIR } = require('../lib/core/paths');
const names = require('../lib/cluster/names');
const { compose } = require('../lib/cluster/kustomize');
const { OcError, oc, requireLogin, currentProject, serves } = require('../lib/cluster/oc');
const { routeUrls } = require('../lib/cluster/routes');
const { parseSize } = require('../k6/lib/cells');
const { mergeRunnerSummaries } = require('../lib/cluster/merge-runners');
const { RESULTS_FILE, writeResults } = require('../lib/results/document');
const { describeMerged } = require('../lib/report/console');
const { formatCellTable } = require('../lib/report/tables');

const USAGE = `Usage: npm run cluster:k6 -- [options]

Applies the k6-testrun component (the k6/ scripts as a ConfigMap, a results PVC and a k6-operator
TestRun), runs one router-matrix cell with N parallel runners against the project's Routes, waits
for it, copies every runner's k6 summary to the results directory and merges them into
results.json: request rates add up, percentiles come from the merged latency distribution.
Render it with npm run report -- DIR.

Options:
  --namespace NS        project where deploy.js put the lab (default ${names.DEFAULT_NAMESPACE};
                        "current" = the current oc project)
  --parallelism N       k6 runner pods (default 4); the VUs are split between them
  --termination T       http|edge|passthrough|reencrypt (default edge)
  --page-size S         1k, 4k, ... (default 1k)
  --connection C        keepalive|close (default keepalive)
  --vus N               virtual users in total (default 128)
  --duration D          k6 duration (default 60s)
  --separate            one runner per node (anti-affinity); needs as many nodes as runners
  --insecure            skip TLS verification (routers whose certificate no cluster CA signs)
  --timeout SECONDS     how long to wait for the run (default: duration + 600)
  --out DIR             where to copy the summaries (default results/cluster-<time>)
  --merge DIR           only merge the runner summaries already in DIR into DIR/results.json
                        (no cluster needed)
  -h, --help            this text

Needs: oc, logged in; the k6-operator installed (OperatorHub: "k6 Operator"); the lab deployed.
Ctrl-C deletes the TestRun, which stops the load.`;

const log = (msg) => console.log(`run-in-cluster: ${msg}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function parse(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      namespace: { type: 'string', default: names.DEFAULT_NAMESPACE },
      parallelism: { type: 'string', default: '4' },
      termination: { type: 'string', default: 'edge' },
      'page-size': { type: 'string', default: '1k' },
      connection: { type: 'string', default: 'keepalive' },
      vus: { type: 'string', default: '128' },
      duration: { type: 'string', default: '60s' },
      separate: { type: 'boolean', default: false },
      insecure: { type: 'boolean', default: false },
      timeout: { type: 'string' },
      out: { type: 'string' },
      merge: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  const int = (flag, min, max) => {
    const n = Number(values[flag]);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new OcError(`--${flag} ${values[flag]}: an integer from ${min} to ${max}`);
    return n;
  };
  if (!names.TERMINATIONS.includes(values.termination)) {
    throw new OcError(`--termination ${values.termination}: choose one of ${names.TERMINATIONS.join(', ')}`);
  }
  if (!['keepalive', 'close'].includes(values.connection))
    throw new OcError(`--connection ${values.connection}: keepalive or close`);
  try {
    parseSize(values['page-size']);
  } catch (err) {
    throw new OcError(`--page-size ${values['page-size']}: ${err.message}`, { cause: err });
  }
  const durationSeconds = durationToSeconds(values.duration);
  if (!durationSeconds) throw new OcError(`--duration ${values.duration}: a k6 duration such as 60s or 5m`);
  return {
    ...values,
    parallelism: int('parallelism', 1, 1000),
    vus: int('vus', 1, 1000000),
    durationSeconds,
    timeout: values.timeout ? int('timeout', 1, 86400) : durationSeconds + 600,
  };
}

function durationToSeconds(text) {
  const m = /^(\d+)(s|m|h)$/.exec(text);
  return m ? Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2]] : null;
}

/** The k6-testrun component's objects, with this run's cell, targets and parallelism filled in. */
function renderObjects(opts, urls, runId, { kustomize = (dir) => oc(['kustomize', dir]) } = {}) {
  const composed = compose({ overlay: 'all', components: ['k6-testrun'] });
  let objects;
  try {
    objects = yaml.loadAll(kustomize(composed.dir)).filter(Boolean);
  } finally {
    composed.cleanup();
  }
  // Only what the component adds: the lab itself is deploy.js's business.
  const wanted = objects.filter(
    (o) =>
      o.kind === 'TestRun' ||
      (o.kind === 'PersistentVolumeClaim' && o.metadata.name === names.RESULTS_PVC) ||
      (o.kind === 'ConfigMap' && /^k6-/.test(o.metadata.name)),
  );
  const testRun = wanted.find((o) => o.kind === 'TestRun');
  testRun.spec.parallelism = opts.parallelism;
  testRun.spec.separate = opts.separate;
  const set = { TERMINATION: opts.termination, PAGE_SIZE: opts['page-size'], CONNECTION: opts.connection };
  Object.assign(set, { VUS: String(opts.vus), DURATION: opts.duration });
  // The Routes' admitted hosts, so a sharded router (spec.subdomain) works as well as the default.
  for (const u of urls) if (u.url) set[u.envName] = u.url;
  if (opts.insecure) set.K6_INSECURE_SKIP_TLS_VERIFY = 'true';
  // The PVC outlives runs: this run's files carry its id. POD_NAME is defined earlier in env.
  set.SUMMARY_PATH = `/results/${runId}-$(POD_NAME).json`;
  const env = testRun.spec.runner.env.filter((e) => !(e.name in set));
  testRun.spec.runner.env = [...env, ...Object.entries(set).map(([name, value]) => ({ name, value }))];
  return wanted;
}

async function waitForStage(namespace, timeoutSeconds) {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let last = null;
  for (;;) {
    const stage = oc(['get', 'testrun', names.TESTRUN, '-n', namespace, '-o', 'jsonpath={.status.stage}'], {
      allowFail: true,
    }).stdout.trim();
    if (stage !== last) {
      log(`stage: ${stage || '(pending)'}`);
      last = stage;
    }
    if (stage === 'finished') return;
    if (stage === 'error')
      throw new OcError(`the TestRun failed: oc describe testrun ${names.TESTRUN} -n ${namespace}`);
    if (Date.now() > deadline) throw new OcError(`the TestRun did not finish within ${timeoutSeconds} s`);
    await sleep(5000);
  }
}

/** Copies /results/*.json off the PVC through a short-lived pod that mounts it. */
function collect(namespace, outDir, image, runId) {
  const pod = 'k6-results-reader';
  const spec = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: pod,
      labels: { 'app.kubernetes.io/name': 'k6', 'app.kubernetes.io/part-of': 'router-lab' },
    },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: 'reader',
          image,
          command: ['sleep', '600'],
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            readOnlyRootFilesystem: true,
          },
          volumeMounts: [{ name: 'results', mountPath: '/results', readOnly: true }],
        },
      ],
      volumes: [{ name: 'results', persistentVolumeClaim: { claimName: names.RESULTS_PVC } }],
    },
  };
  oc(['delete', 'pod', pod, '-n', namespace, '--ignore-not-found', '--wait']);
  oc(['apply', '-n', namespace, '-f', '-'], { input: JSON.stringify(spec) });
  try {
    oc(['wait', '--for=condition=Ready', `pod/${pod}`, '-n', namespace, '--timeout=180s']);
    const files = oc(['exec', pod, '-n', namespace, '--', 'ls', '/results'])
      .split('\n')
      .map((f) => f.trim())
      .filter((f) => f.startsWith(`${runId}-`) && f.endsWith('.json'));
    fs.mkdirSync(outDir, { recursive: true });
    for (const f of files) {
      fs.writeFileSync(
        path.join(outDir, f),
        oc(['exec', pod, '-n', namespace, '--', 'cat', `/results/${f}`]),
      );
    }
    return files;
  } finally {
    oc(['delete', 'pod', pod, '-n', namespace, '--ignore-not-found', '--wait=false'], { allowFail: true });
  }
}

/**
 * Reads the runner summaries in `dir` (`files`, default every *.json but results.json), merges
 * them into one results document, writes dir/results.json and returns the document. Throws
 * naming a file that is not a runner summary. The run's end is the newest summary file's time.
 */
function mergeDirectory(dir, { files, namespace } = {}) {
  let names = files;
  try {
    names ??= fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f !== RESULTS_FILE);
  } catch (err) {
    throw new OcError(`cannot read ${dir}: ${err.code === 'ENOENT' ? 'no such directory' : err.message}`);
  }
  if (!names.length) throw new OcError(`${dir} holds no runner summaries (*.json)`);
  let newest = 0;
  const runners = names.sort().map((file) => {
    const where = path.join(dir, file);
    newest = Math.max(newest, fs.statSync(where).mtimeMs);
    try {
      return { file, summary: JSON.parse(fs.readFileSync(where, 'utf8')) };
    } catch (err) {
      throw new OcError(`${where} is not valid JSON: ${err.message}`);
    }
  });
  let results;
  try {
    const finishedAt = new Date(newest).toISOString();
    results = mergeRunnerSummaries(runners, { id: path.basename(dir), finishedAt, namespace });
  } catch (err) {
    throw new OcError(`${dir}: ${err.message}`);
  }
  writeResults(dir, results);
  return results;
}

function printMerged(dir, results) {
  console.log(`${describeMerged(results)}\n\n${formatCellTable(results)}\n`);
  log(`results in ${path.join(dir, RESULTS_FILE)}; the report: npm run report -- ${dir}`);
}

async function main() {
  const opts = parse(process.argv.slice(2));
  if (opts.help) return console.log(USAGE);
  if (opts.merge) {
    const dir = path.resolve(opts.merge);
    return printMerged(dir, mergeDirectory(dir));
  }
  log(`logged in as ${requireLogin()}`);
  const namespace = opts.namespace === 'current' ? currentProject() : opts.namespace;
  if (!namespace) throw new OcError('no current project: pass --namespace NS');
  if (!serves('k6.io', 'testruns')) {
    throw new OcError(
      'the cluster has no TestRun API: install the k6-operator (OperatorHub "k6 Operator") first',
    );
  }
  const urls = routeUrls(JSON.parse(oc(['get', 'routes', '-n', namespace, '-o', 'json'])).items);
  if (!urls.some((u) => u.termination === opts.termination && u.url)) {
    throw new OcError(
      `no admitted ${opts.termination} route in ${namespace}: run bin/cluster-deploy.js first`,
    );
  }
  const runId = `run-${Date.now().toString(36)}`;
  const objects = renderObjects(opts, urls, runId);
  const testRun = objects.find((o) => o.kind === 'TestRun');

  let interrupted = false;
  const stop = () => {
    interrupted = true;
    log('interrupted: deleting the TestRun, which stops the runners');
    oc(['delete', 'testrun', names.TESTRUN, '-n', namespace, '--ignore-not-found', '--wait=false'], {
      allowFail: true,
    });
    process.exit(130);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    oc(['delete', 'testrun', names.TESTRUN, '-n', namespace, '--ignore-not-found', '--wait']);
    log(
      `TestRun: ${opts.parallelism} runners, ${opts.termination} ${opts['page-size']} ${opts.connection}, ${opts.vus} VUs for ${opts.duration}`,
    );
    oc(['apply', '-n', namespace, '-f', '-'], { input: objects.map((o) => JSON.stringify(o)).join('\n') });
    await waitForStage(namespace, opts.timeout);
    const outDir = path.resolve(
      opts.out || path.join(RESULTS_DIR, `cluster-${new Date().toISOString().replace(/[:.]/g, '-')}`),
    );
    const files = collect(namespace, outDir, testRun.spec.runner.image, runId);
    if (!files.length) throw new OcError(`the runners left no summary on the PVC ${names.RESULTS_PVC}`);
    log(`${files.length} runner summaries in ${outDir}`);
    if (files.length < opts.parallelism) {
      log(`warning: ${opts.parallelism} runners ran but only ${files.length} summaries were found`);
    }
    printMerged(outDir, mergeDirectory(outDir, { files, namespace }));
  } finally {
    if (!interrupted) {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(
      `run-in-cluster: ${err instanceof OcError || err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? err.message : err.stack}`,
    );
    process.exitCode = 1;
  });
}

module.exports = { parse, durationToSeconds, renderObjects, mergeDirectory };
