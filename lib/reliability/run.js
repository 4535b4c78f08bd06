'use strict';
// Runs reliability scenarios one after another against the running lab, writing the documents after
// each. Ctrl-C stops the scenario in progress (which undoes its fault); what finished is kept, marked
// incomplete, and the AbortError carries the run ({ dir, doc }).
const fs = require('node:fs');
const path = require('node:path');
const { labDir: defaultLabDir, runDir, runId } = require('../core/paths');
const { reportError } = require('../core/run-command');
const { requireTool } = require('../core/tools');
const { applicable } = require('./applicable');
const { readLabState } = require('../lab/common/state');
const { withLab } = require('../lab/with-lab');
const { resolveTarget } = require('../matrix/target');
const { checkScenario } = require('./scenario');
const { createDocument, addScenario, finish, writeDocument } = require('../results-model/reliability');
const { writeMarkdown, MD_FILE } = require('../report/reliability-markdown');
const { writeHtml } = require('../report/reliability-html');
const { renderReport } = require('../report/index');
const { RESULTS_FILE } = require('../results-model/document');
const SCENARIOS = require('./scenarios');

/** The scenarios named in `names`, in the order of the catalogue. */
function selectScenarios(names) {
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length) {
    throw new Error(
      `unknown scenario ${unknown.join(', ')} (known: ${SCENARIOS.map((s) => s.name).join(', ')})`,
    );
  }
  return SCENARIOS.filter((s) => names.includes(s.name)).map(checkScenario);
}

/**
 * Writes the run's files; when `dir` holds a matrix run (results.json), its report is rendered
 * again with the reliability section. A report that cannot be rendered is said, not fatal: the
 * reliability files are written first. Resolves the reason the report was not rendered, if any.
 */
function save(dir, doc) {
  writeDocument(dir, doc);
  writeMarkdown(dir, doc);
  writeHtml(dir, doc);
  if (!fs.existsSync(path.join(dir, RESULTS_FILE))) return null;
  try {
    renderReport(dir);
    return null;
  } catch (err) {
    return `report.html not updated with the reliability section: ${err.message}`;
  }
}

/**
 * Runs `scenarios` (objects, see scenario.js) with `opts` against the lab of `env`, writing into
 * `dir`. Resolves { dir, doc }.
 */
async function runReliability({
  scenarios: asked,
  opts,
  env = process.env,
  dir,
  runId,
  log = console.log,
  signal,
}) {
  const labDir = defaultLabDir(env);
  const state = readLabState(labDir);
  if (!state) throw new Error(`no lab is running in ${labDir}: start it with 'npm run lab:up'`);
  const { run: scenarios, skipped } = applicable(asked, state);
  const router = `LAB_ROUTER=${state.router.kind}`;
  for (const { name, why } of skipped) log(`Skipped with ${router}: ${name}: ${why}`);
  if (!scenarios.length) throw new Error(`none of the scenarios asked for applies to ${router} (see above)`);
  const { target } = resolveTarget({ target: 'lab' }, env);
  const k6 = requireTool('k6');
  const doc = createDocument({ runId, opts, state });
  // The report is rendered after every scenario: a reason it could not be is said once.
  let lastReportFailure = null;
  const saveAndSay = () => {
    const failure = save(dir, doc);
    if (failure && failure !== lastReportFailure) log(`  ${failure}`);
    lastReportFailure = failure;
  };
  const ctx = {
    env,
    target,
    k6,
    dir,
    opts,
    log,
    signal,
    rawFile: (name) => path.join(dir, 'raw', name),
    // Scenarios read the lab afresh: an earlier one may have replaced a pid (a reload, a restart).
    state: () => readLabState(labDir),
  };
  try {
    for (const [i, scenario] of scenarios.entries()) {
      signal?.throwIfAborted();
      log(`\n[${i + 1}/${scenarios.length}] ${scenario.title} (promise: ${scenario.promise})`);
      log(`  ${scenario.describe(opts)}`);
      const begin = Date.now();
      const startedAt = new Date(begin).toISOString();
      const observation = await scenario.inject(ctx);
      const verdict = scenario.verdict(observation, opts);
      addScenario(doc, scenario, {
        opts,
        startedAt,
        seconds: (Date.now() - begin) / 1000,
        observation,
        verdict,
      });
      saveAndSay();
      log(
        `  ${verdict.pass ? 'PASS' : 'FAIL'}${verdict.reasons.length ? `: ${verdict.reasons.join('; ')}` : ''}`,
      );
      for (const note of verdict.notes || []) log(`  note: ${note}`);
    }
    finish(doc, { complete: true });
    saveAndSay();
    return { dir, doc };
  } catch (err) {
    finish(doc, { complete: false });
    saveAndSay();
    err.run = { dir, doc };
    throw err;
  }
}

/**
 * npm run reliability's work: the scenarios opts selects against the lab (started, and stopped
 * again, when none runs), the documents into opts.out or a new results directory. Resolves the
 * exit code: 0 when every promise held.
 */
async function reliabilityCommand(opts, signal) {
  const onError = (err) => {
    const code = reportError('reliability', err, signal);
    if (err.run) console.error(`  what finished: ${path.join(err.run.dir, MD_FILE)}`);
    return code;
  };
  return withLab('reliability', { signal, onError }, async () => {
    const id = runId();
    const dir = runDir(opts.out, id);
    const scenarios = selectScenarios(opts.scenarios);
    const { doc } = await runReliability({ scenarios, opts, dir, runId: id, signal });
    const verdict = doc.pass ? 'Every promise held' : 'A promise was broken';
    console.log(`\n${verdict}: ${path.join(dir, MD_FILE)}`);
    return doc.pass ? 0 : 1;
  });
}

module.exports = { runReliability, reliabilityCommand, selectScenarios, SCENARIOS };
