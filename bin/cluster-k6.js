#!/usr/bin/env node
'use strict';
// Runs one router-matrix cell from inside the cluster with the k6-operator: N k6 runners, the same
// k6/ scripts, each runner's summary copied back to results/ and merged into a results.json of one
// cell that npm run report renders. See --help and docs/openshift.md.
const fs = require('node:fs');
const path = require('node:path');
const yaml = require('js-yaml');
const { RESULTS_DIR } = require('../lib/core/paths');
const { NAMESPACE } = require('../lib/cluster/options');
const { defineCommand, commandLine, derived } = require('../lib/core/settings');
const { TERMINATIONS, CONNECTIONS, parseSize } = require('../k6/lib/cells');
const { durationSeconds } = require('../k6/lib/config');
const names = require('../lib/cluster/names');
const { compose } = require('../lib/cluster/kustomize');
const { OcError, oc, requireLogin, currentProject, serves } = require('../lib/cluster/oc');
const { routeUrls } = require('../lib/cluster/routes');
const { mergeRunnerSummaries } = require('../lib/cluster/merge-runners');
const { RESULTS_FILE, writeResults } = require('../lib/results-model/document');
const { describeMerged } = require('../lib/report/console');
const { formatCellTable } = require('../lib/report/tables');
const { withInterrupt } = require('../lib/core/interrupt');

const COMMAND = defineCommand({
  usage: 'npm run cluster:k6 -- [options]',
  description: `Applies the k6-testrun component (the k6/ scripts as a ConfigMap, a results PVC and a k6-operator
TestRun), runs one router-matrix cell with N parallel runners against the project's Routes, waits
for it, copies every runner's k6 summary to the results directory and merges them into
results.json: request rates add up, percentiles come from the merged latency distribution.
Render it with npm run report -- DIR.`,
  settings: [
    {
      ...NAMESPACE,
      help: 'project where npm run cluster:deploy put the lab; "current" = the current oc project',
    },
    {
      name: 'parallelism',
      flag: '--parallelism',
      arg: 'N',
      type: 'integer',
      min: 1,
      max: 1000,
      default: 4,
      help: 'k6 runner pods; the VUs are split between them',
    },
    {
      name: 'termination',
      flag: '--termination',
      arg: 'T',
      type: 'enum',
      choices: TERMINATIONS,
      default: 'edge',
      help: 'the Route to load',
    },
    {
      name: 'page-size',
      flag: '--page-size',
      arg: 'S',
      type: 'string',
      default: '1k',
      // The page-size grammar of the whole project (1.5k is refused), kept as written for k6.
      parse: (size) => (parseSize(size), size),
      help: 'page size, e.g. 1k, 4k, 1024 (up to 1 MiB)',
    },
    {
      name: 'connection',
      flag: '--connection',
      arg: 'C',
      type: 'enum',
      choices: CONNECTIONS,
      default: 'keepalive',
      help: 'connection mode',
    },
    {
      name: 'vus',
      flag: '--vus',
      arg: 'N',
      type: 'integer',
      min: 1,
      max: 1000000,
      default: 128,
      help: 'virtual users in total',
    },
    {
      name: 'duration',
      flag: '--duration',
      arg: 'D',
      type: 'string',
      default: '60s',
      parse: (text) => {
        if (!durationSeconds(text))
          throw new Error(`${JSON.stringify(text)} is not a k6 duration such as 60s or 5m`);
        return text;
      },
      help: 'k6 duration',
    },
    {
      name: 'separate',
      flag: '--separate',
      type: 'boolean',
      help: 'one runner per node (anti-affinity); needs as many nodes as runners',
    },
    {
      name: 'insecure',
      flag: '--insecure',
      type: 'boolean',
      help: 'skip TLS verification (routers whose certificate no cluster CA signs)',
    },
    {
      name: 'timeout',
      flag: '--timeout',
      arg: 'SECONDS',
      type: 'integer',
      min: 1,
      max: 86400,
      default: derived('duration + 600', (v) => durationSeconds(v.duration) + 600),
      help: 'how long to wait for the run',
    },
    {
      name: 'out',
      flag: '--out',
      arg: 'DIR',
      type: 'string',
      help: 'where to copy the summaries (unset: results/cluster-<time>)',
    },
    {
      name: 'merge',
      flag: '--merge',
      arg: 'DIR',
      type: 'string',
      help: 'only merge the runner summaries already in DIR into DIR/results.json (no cluster needed)',
    },
  ],
  epilogue: `Needs: oc, logged in; the k6-operator installed (OperatorHub: "k6 Operator"); the lab deployed.
Ctrl-C deletes the TestRun, which stops the load.`,
});

const log = (msg) => console.log(`cluster:k6: ${msg}`);
const { setTimeout: sleep } = require('node:timers/promises');

/** The options (plus durationSeconds), or { help: true }; throws UsageError naming the option. */
function parse(argv) {
  const parsed = COMMAND.parse(argv);
  if (parsed.help) return parsed;
  return { ...parsed.values, durationSeconds: durationSeconds(parsed.values.duration) };
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
  // Only what the component adds: the lab itself is cluster:deploy's business.
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
  // The router-matrix script's own variable: it also records that verification was skipped.
  if (opts.insecure) set.INSECURE_SKIP_TLS_VERIFY = 'true';
  // The PVC outlives runs: this run's files carry its id. POD_NAME is defined earlier in env.
  set.SUMMARY_PATH = `/results/${runId}-$(POD_NAME).json`;
  const env = testRun.spec.runner.env.filter((e) => !(e.name in set));
  testRun.spec.runner.env = [...env, ...Object.entries(set).map(([name, value]) => ({ name, value }))];
  return wanted;
}

async function waitForStage(namespace, timeoutSeconds, signal) {
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
    await sleep(5000, undefined, { signal });
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
  // Each run names its files <run id>-<pod>.json: two runs in one directory (a reused --out)
  // would add up as if their runners had run side by side.
  const runs = new Set(names.map((f) => (/^(run-[a-z0-9]+)-/.exec(f) || [])[1]).filter(Boolean));
  if (runs.size > 1) {
    throw new OcError(
      `${dir} holds the summaries of ${runs.size} runs (${[...runs].join(', ')}): merge one run at a time (move the others away)`,
    );
  }
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
  const opts = commandLine(COMMAND, process.argv.slice(2), { name: 'cluster:k6', parse });
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
      `no admitted ${opts.termination} route in ${namespace}: run npm run cluster:deploy first`,
    );
  }
  const runId = `run-${Date.now().toString(36)}`;
  const objects = renderObjects(opts, urls, runId);
  const testRun = objects.find((o) => o.kind === 'TestRun');

  await withInterrupt(
    async (signal) => {
      try {
        await runTestRun({ opts, namespace, objects, testRun, runId, signal });
      } catch (err) {
        if (err.name !== 'AbortError') throw err;
        // Deleting the TestRun stops the runners; collect() cleans up its own reader pod.
        oc(['delete', 'testrun', names.TESTRUN, '-n', namespace, '--ignore-not-found', '--wait=false'], {
          allowFail: true,
        });
        process.exitCode = 130;
      }
    },
    { message: 'cluster:k6: interrupted: deleting the TestRun, which stops the runners' },
  );
}

/** Applies the TestRun, waits for it, copies the runners' summaries and merges them. */
async function runTestRun({ opts, namespace, objects, testRun, runId, signal }) {
  oc(['delete', 'testrun', names.TESTRUN, '-n', namespace, '--ignore-not-found', '--wait']);
  log(
    `TestRun: ${opts.parallelism} runners, ${opts.termination} ${opts['page-size']} ${opts.connection}, ${opts.vus} VUs for ${opts.duration}`,
  );
  oc(['apply', '-n', namespace, '-f', '-'], { input: objects.map((o) => JSON.stringify(o)).join('\n') });
  await waitForStage(namespace, opts.timeout, signal);
  signal.throwIfAborted();
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
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`cluster:k6: ${err instanceof OcError ? err.message : err.stack}`);
    process.exitCode = 1;
  });
}

module.exports = { parse, renderObjects, mergeDirectory };
