'use strict';
// reliability.json, one run of `npm run reliability` (apart from results.json): the lab, and per
// scenario what was injected, the load, errors, recovery, data lost and the verdict. Written after
// every scenario, so an interrupted run keeps what finished (complete: false).
const fs = require('node:fs');
const path = require('node:path');
const { writeJsonAtomic } = require('../core/files');
const { compileSchema, describeError } = require('./document');
const SCHEMA = require('./reliability.schema.json');

const VERSION = SCHEMA.properties.version.const;
const JSON_FILE = 'reliability.json';

let validate = null;
/** Throws unless `doc` matches lib/results-model/reliability.schema.json; `file` names it in the message. */
function checkDocument(doc, file) {
  if (doc?.version !== VERSION) {
    throw new Error(
      `${file} is reliability version ${JSON.stringify(doc?.version ?? null)}; this code reads ${VERSION}`,
    );
  }
  validate ??= compileSchema(SCHEMA);
  const error = validate(doc);
  if (error)
    throw new Error(
      `${file} does not match lib/results-model/reliability.schema.json: ${describeError(error)}`,
    );
  return doc;
}

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

function writeDocument(dir, doc) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, JSON_FILE);
  checkDocument(doc, file);
  return writeJsonAtomic(file, doc);
}

function readDocument(dir) {
  const file = path.join(dir, JSON_FILE);
  return checkDocument(JSON.parse(fs.readFileSync(file, 'utf8')), file);
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
