'use strict';
// reliability.json: one run of `npm run reliability`. Its own small document, apart from the
// matrix's results.json: what ran against which lab, and per scenario what was injected and
// when, the load meanwhile, the errors by kind, the recovery time, the data lost and the verdict.
// Written after every scenario, so an interrupted run keeps what finished (complete: false).
const fs = require('node:fs');
const path = require('node:path');

const VERSION = 1;
const JSON_FILE = 'reliability.json';

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
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(doc, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

function readDocument(dir) {
  const doc = JSON.parse(fs.readFileSync(path.join(dir, JSON_FILE), 'utf8'));
  if (doc.version !== VERSION) {
    throw new Error(
      `${path.join(dir, JSON_FILE)} is reliability version ${doc.version}; this code reads ${VERSION}`,
    );
  }
  return doc;
}

module.exports = { VERSION, JSON_FILE, createDocument, addScenario, finish, writeDocument, readDocument };
