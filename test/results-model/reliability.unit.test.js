'use strict';
// reliability.json against its schema (lib/results-model/reliability.schema.json), both ways, and
// the tables a scenario lays out kept in the document: no lab needed.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const reliability = require('../../lib/results-model/reliability');
const { observedCase } = require('../../lib/reliability/scenario');
const { STATE, OPTS, sampleDocument } = require('../fixtures/reliability-document');

const { createDocument, addScenario, finish, writeDocument, readDocument, checkDocument } = reliability;

test('a document is written and read back through the schema', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-doc-'));
  try {
    const doc = sampleDocument();
    writeDocument(dir, doc);
    expect(readDocument(dir)).toEqual(doc);
    expect(doc).toMatchObject({ version: 1, complete: true, pass: true });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a document of another version, or of another shape, is refused with the place named', () => {
  expect(() => checkDocument({ ...sampleDocument(), version: 2 }, 'x.json')).toThrow(
    /x.json is reliability version 2; this code reads 1/,
  );
  const bad = sampleDocument();
  delete bad.scenarios[0].cases[0].recoveryMs;
  expect(() => checkDocument(bad, 'x.json')).toThrow(
    /x.json does not match lib\/results-model\/reliability.schema.json: \/scenarios\/0\/cases\/0 must have required property 'recoveryMs'/,
  );
});

test('the tables and texts a scenario lays out are kept in the document, checked by the schema', () => {
  const exhaustion = require('../../lib/reliability/exhaustion');
  const doc = createDocument({ runId: 'r2', opts: OPTS, state: STATE });
  const observation = {
    cases: [
      observedCase({
        name: 'maxconn',
        load: { workload: 'GET /api/pages/1k via http', requests: 90, failed: 0 },
        figures: { diagnosis: 'maxconn 20 reached: raise ROUTER_MAX_CONNECTIONS', routerAlive: true },
      }),
    ],
  };
  addScenario(doc, exhaustion, {
    opts: { exhaustMaxconn: 20, exhaustConnections: 40, exhaustRate: 100, exhaustSeconds: 2 },
    startedAt: new Date().toISOString(),
    seconds: 2,
    observation,
    verdict: exhaustion.verdict(observation),
  });
  expect(doc.scenarios[0].extras).toEqual([
    { title: 'maxconn', text: 'maxconn 20 reached: raise ROUTER_MAX_CONNECTIONS' },
  ]);
  expect(() => checkDocument(finish(doc, { complete: true }), 'x.json')).not.toThrow();
  doc.scenarios[0].extras = [{ title: 'a table without rows', head: ['a'] }];
  expect(() => checkDocument(doc, 'x.json')).toThrow(/\/scenarios\/0\/extras\/0/);
});
