'use strict';
// reliability.json: one run of `npm run reliability`. Its own small document, apart from the
// matrix's results.json: what ran against which lab, and per scenario what was injected and
// when, the load meanwhile, the errors by kind, the recovery time, the data lost and the verdict.
// Written after every scenario, so an interrupted run keeps what finished (complete: false).
const fs = require('node:fs');
const path = require('node:path');
const { compileSchema, describeError } = require('../results-model/document');
const SCHEMA = require('./schema.json');

const VERSION = SCHEMA.properties.version.const;
const JSON_FILE = 'reliability.json';

let validate = null;
/** Throws unless `doc` matches lib/reliability/schema.json; `file` names it in the message. */
function checkDocument(doc, file) {
  if (doc?.version !== VERSION) {
    throw new Error(
      `${file} is reliability version ${JSON.stringify(doc?.version ?? null)}; this code reads ${VERSION}`,
    );
  }
  validate ??= compileSchema(SCHEMA);
  const error = validate(doc);
  if (error) throw new Error(`${file} does not match lib/reliability/schema.json: ${describeError(error)}`);
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

/** Adds one scenario's outcome: its declaration, the observation and the verdict. */
function addScenario(doc, scenario, { opts, startedAt, seconds, observation, verdict }) {
  doc.scenarios.push({
    name: scenario.name,
    title: scenario.title,
    promise: scenario.promise,
    description: scenario.describe(opts),
    startedAt,
    seconds,
    cases: observation.cases,
    skipped: observation.skipped ?? null,
    verdict: { pass: verdict.pass, reasons: verdict.reasons, notes: verdict.notes || [] },
  });
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
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(doc, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
  return file;
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
