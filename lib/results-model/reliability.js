'use strict';
// reliability.json, one run of `npm run reliability` (apart from results.json): the lab, and per
// scenario what was injected, the load, errors, recovery, data lost and the verdict. Written after
// every scenario, so an interrupted run keeps what finished (complete: false).
const { documentFile } = require('./document');
const FILE = documentFile('reliability');
const JSON_FILE = FILE.fileName;
const VERSION = FILE.version;
const { check: checkDocument, write: writeDocument, read: readDocument } = FILE;

/** A new run's document: the options that produced it and the lab it ran against. */
function createDocument({ runId, opts, state }) {
  return {
    version: VERSION,
    runId,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    complete: false,
    options: opts,
    lab: {
      labDir: state.labDir,
      replicas: state.instances.length,
      redis: { mode: state.redis.mode, fsync: state.redis.fsync ?? null },
      router: { threads: state.router.threads, maxconn: state.router.maxconn },
    },
    scenarios: [],
  };
}

/**
 * Adds one scenario's outcome: its declaration, the observation, the verdict, and the tables and
 * texts the scenario lays its figures out in (extras), so that renderers need no scenario code.
 */
function addScenario(doc, scenario, { opts, startedAt, seconds, observation, verdict }) {
  const entry = {
    name: scenario.name,
    title: scenario.title,
    promise: scenario.promise,
    description: scenario.describe(opts),
    startedAt,
    seconds,
    cases: observation.cases,
    skipped: observation.skipped ?? null,
    verdict: { pass: verdict.pass, reasons: verdict.reasons, notes: verdict.notes || [] },
  };
  if (scenario.extras) entry.extras = scenario.extras(entry);
  doc.scenarios.push(entry);
  return doc;
}

function finish(doc, { complete }) {
  doc.finishedAt = new Date().toISOString();
  doc.complete = complete;
  doc.pass = complete && doc.scenarios.every((s) => s.verdict.pass);
  return doc;
}

module.exports = {
  VERSION,
  JSON_FILE,
  createDocument,
  addScenario,
  finish,
  writeDocument,
  readDocument,
  checkDocument,
};
