'use strict';
// The results document (results.json): the one place that creates it, adds cells, decides every
// verdict (finalize), and writes and reads it, checked against ./schema.json both ways. A new field
// is one change here (or in ./cell.js, ./reduce.js), one in the schema, one per renderer showing it.
const fs = require('node:fs');
const path = require('node:path');
const SCHEMA = require('./schema.json');
const REFERENCE = require('../../k6/lib/reference.json');
const { valuesOf } = require('../../k6/lib/cells');
const { limitOf, sessionVerdict } = require('./verdicts');
const { protocolVerdict } = require('./protocol-evidence');
const { atTarget } = require('./cost-curve');
const { routerCores, capacityOf, floorMultipleOf, handshakePrices, sizing } = require('./derived');
const { writeJsonAtomic } = require('../core/files');
const { requireDependency } = require('../core/dependency');

// The version written, and those read: an older one whose shape is a subset of this one's.
const READ_VERSIONS = SCHEMA.properties.version.enum;
const RESULTS_VERSION = Math.max(...READ_VERSIONS);
const RESULTS_FILE = 'results.json';

let validator = null;

/** A validator for `schema` (JSON Schema 2020-12): doc → null, or the first error. */
function compileSchema(schema) {
  // ajv is loaded when a document is first checked: reading a results directory's name needs none.
  const check = new (requireDependency('ajv/dist/2020'))({ allErrors: false, allowUnionTypes: true }).compile(
    schema,
  );
  return (doc) => (check(doc) ? null : check.errors[0]);
}

function validate(doc) {
  validator ??= compileSchema(SCHEMA);
  return validator(doc);
}

/** A schema error as '<path> <problem>', e.g. "/cells/0 must have required property 'okRps'". */
function describeError(error) {
  const where = error.instancePath || '(the document)';
  const { additionalProperty, allowedValues } = error.params || {};
  const detail = additionalProperty
    ? ` '${additionalProperty}'`
    : allowedValues
      ? ` (${allowedValues.map((v) => JSON.stringify(v)).join(', ')})`
      : '';
  return `${where} ${error.message}${detail}`;
}

/** Throws unless `doc` is a results document of a version read here; `file` names it in the message. */
function checkDocument(doc, file) {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`${file} is not a JSON object`);
  if (!READ_VERSIONS.includes(doc.version)) {
    throw new Error(
      `${file} is results version ${JSON.stringify(doc.version ?? null)}; this version of Router Lab reads ` +
        `versions ${READ_VERSIONS.join(' and ')} only (re-run the matrix, or render it with the Router Lab that wrote it)`,
    );
  }
  const error = validate(doc);
  if (error) throw new Error(`${file} does not match lib/results-model/schema.json: ${describeError(error)}`);
  return doc;
}

/** The results' tls block: what was trusted, verified and skipped, and why. */
function tlsBlock({ trust, insecure }) {
  if (insecure) {
    return {
      trust,
      insecure: true,
      verified: [],
      skipped: ['edge', 'passthrough', 'reencrypt'],
      why: '--insecure: the router presents a certificate this machine cannot verify (e.g. self-signed), so k6 skips verification on every route',
    };
  }
  return {
    trust,
    insecure: false,
    verified: ['edge', 'reencrypt'],
    skipped: ['passthrough'],
    why: "a passthrough route hands the client the service's own certificate (issued for the service's cluster name), which cannot match the route host; k6 skips verification for passthrough cells only",
  };
}

/** An environment block with every field the schema names unknown (null), then `known`. */
function unknownEnvironment(known) {
  const fields = SCHEMA.$defs.environment.required.map((key) => [key, null]);
  return { ...Object.fromEntries(fields), ...known };
}

/**
 * A new run without cells. `options`, `environment`, `tls`, `handshakeFloor`: the blocks the
 * schema describes (the floor is null where no close TLS cell was planned).
 */
function createRun({
  id,
  startedAt = new Date().toISOString(),
  options,
  environment,
  tls,
  handshakeFloor = null,
  reference = REFERENCE,
}) {
  return {
    version: RESULTS_VERSION,
    id,
    startedAt,
    finishedAt: null,
    complete: false,
    options,
    environment,
    tls,
    handshakeFloor,
    cells: [],
    skippedCells: [],
    handshakePrices: [],
    sizing: null,
    reference,
  };
}

/** Adds a cell's figures (./cell.js buildCellResult, or the cluster's reduced runners). */
function addCell(doc, cell) {
  doc.cells.push(cell);
  return doc;
}

/** Records a planned cell the run could not measure here: { name, reason }. */
function addSkipped(doc, { name, reason }) {
  doc.skippedCells.push({ name, reason });
  return doc;
}

/** The run's lightest cell: the lowest service time p50, the backend verdicts' baseline. */
function lightestCell(cells) {
  return cells
    .filter((c) => c.serviceTimeMs && c.serviceTimeMs.p50 !== null)
    .reduce((best, c) => (!best || c.serviceTimeMs.p50 < best.serviceTimeMs.p50 ? c : best), null);
}

/**
 * The finished document, as a copy: every cell gets its one `limitedBy`, decided here against the
 * whole run (the backend's baseline is the lightest cell). `complete`: false for an interrupted
 * run or an intermediate write; `finishedAt`: null while the run is under way.
 */
function finalize(doc, { complete, finishedAt = null }) {
  const baseline = lightestCell(doc.cells);
  const router = routerCores(doc.environment);
  const { vus, rate } = doc.options;
  const context = { baseline, vus, rate, router };
  // limitedBy right after the cell's name and coordinates, where a reader of the JSON looks first.
  const cells = doc.cells.map((cell) => {
    const head = { name: cell.name, ...valuesOf(cell), limitedBy: null };
    const decided = Object.assign(head, cell);
    decided.tlsEvidence = sessionVerdict(decided, doc.handshakeFloor);
    decided.protocolEvidence = protocolVerdict(decided);
    decided.limitedBy = limitOf(decided, context);
    decided.capacity = capacityOf(decided, router);
    decided.floorMultiple = floorMultipleOf(decided, doc.handshakeFloor);
    if (decided.costCurve?.points) {
      const generatorCores = decided.generator.allowedCores;
      decided.costCurve = {
        ...decided.costCurve,
        atTarget: atTarget(decided.costCurve, { router, generatorCores }),
      };
    }
    return decided;
  });
  return {
    ...doc,
    finishedAt,
    complete,
    cells,
    handshakePrices: handshakePrices(cells, doc.handshakeFloor),
    sizing: sizing(cells, {
      tps: doc.reference.bank.targetTps,
      cluster: doc.environment?.target === 'cluster',
    }),
  };
}

/** Writes dir/results.json after checking it against the schema (a failure is a bug here). */
function writeResults(dir, doc) {
  const file = path.join(dir, RESULTS_FILE);
  checkDocument(doc, file);
  return writeJsonAtomic(file, doc);
}

/** Reads and checks dir/results.json; throws with the file and the problem named. */
function readResults(dir) {
  const file = path.join(dir, RESULTS_FILE);
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    const problem =
      err.code === 'ENOENT'
        ? `does not exist: is ${dir} a results directory?`
        : `is not valid JSON: ${err.message}`;
    throw new Error(`${file} ${problem}`, { cause: err });
  }
  return checkDocument(doc, file);
}

/**
 * Check, write and read of a run's other documents: `kind` ('reliability', 'route-scale') names
 * it in messages, its file in the run's directory (<kind>.json) and its schema, beside this module
 * (<kind>.schema.json). Each is checked against its version and schema when written and when read.
 */
function documentFile(kind) {
  const fileName = `${kind}.json`;
  const schemaFile = `lib/results-model/${kind}.schema.json`;
  const schema = require(`./${kind}.schema.json`);
  const version = schema.properties.version.const;
  let validate = null;
  const check = (doc, file) => {
    if (doc?.version !== version) {
      throw new Error(
        `${file} is ${kind} version ${JSON.stringify(doc?.version ?? null)}; this code reads ${version}`,
      );
    }
    validate ??= compileSchema(schema);
    const error = validate(doc);
    if (error) throw new Error(`${file} does not match ${schemaFile}: ${describeError(error)}`);
    return doc;
  };
  return {
    fileName,
    version,
    check,
    write(dir, doc) {
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, fileName);
      check(doc, file);
      return writeJsonAtomic(file, doc);
    },
    read(dir) {
      const file = path.join(dir, fileName);
      return check(JSON.parse(fs.readFileSync(file, 'utf8')), file);
    },
  };
}

module.exports = {
  compileSchema,
  documentFile,
  describeError,
  RESULTS_VERSION,
  RESULTS_FILE,
  SCHEMA,
  checkDocument,
  tlsBlock,
  unknownEnvironment,
  createRun,
  addCell,
  addSkipped,
  finalize,
  writeResults,
  readResults,
};
