'use strict';
// What every reliability scenario is: a small object with four jobs (the last optional), so the
// runner, the results and the report treat them all alike. Its shape: the Scenario typedef below.

/**
 * @typedef {object} Scenario
 * @property {string} name      the key in --scenarios and reliability.json ('router-reload')
 * @property {string} title     'Router reload under load'
 * @property {string} promise   what the verdict holds it to, in words ('zero failed requests')
 * @property {(opts) => string} describe  what it will inject and under which load
 * @property {(ctx) => Promise<Observation>} inject  load + fault. ctx: { state() (lab.json now),
 *   env, target, k6, rawFile(name), opts, log, signal }. It leaves the lab as it found it, also
 *   when `signal` aborts it.
 * @property {(observation, opts) => {pass, reasons: string[], notes: string[]}} verdict
 * @property {(result) => Array<{title, head, rows} | {title, text}>} [extras]  its own tables and
 *   texts in reliability.md and reliability.html
 *
 * @typedef {object} Observation  { cases: [Case] }, one case per variant (a termination, a
 *   policy), or { cases: [], skipped: 'why' } when the lab cannot run it (the verdict passes
 *   with a note).
 * @typedef {object} Case  { name, injected: [{ atMs, what }], load, errors: { kind: count },
 *   recoveryMs, dataLost, figures }; atMs counts from the start of the case's load; null means
 *   "does not apply".
 */

const FIELDS = ['name', 'title', 'promise', 'describe', 'inject', 'verdict'];

/** Throws naming the scenario and the missing field: a programming error, found at start. */
function checkScenario(scenario) {
  for (const field of FIELDS) {
    const want = ['describe', 'inject', 'verdict'].includes(field) ? 'function' : 'string';
    if (typeof scenario[field] !== want) {
      throw new Error(`reliability scenario ${scenario.name || '?'}: '${field}' must be a ${want}`);
    }
  }
  return scenario;
}

/** A case of an observation, with every field present. */
function observedCase({
  name,
  injected = [],
  load = null,
  errors = {},
  recoveryMs = null,
  dataLost = null,
  figures = {},
}) {
  return { name, injected, load, errors, recoveryMs, dataLost, figures };
}

/** A case whose load lost requests, in words ('… 3 of 900 requests failed (2 502, 1 0)'), or null. */
function lostRequests(c) {
  if (!c.load.failed) return null;
  const kinds = Object.entries(c.errors).map(([k, n]) => `${n} ${k}`);
  return `${c.name}: ${c.load.failed} of ${c.load.requests} requests failed (${kinds.join(', ')})`;
}

/** The cases' lost requests as a verdict's reasons: zero lost requests is the promise. */
function lossReasons(cases) {
  return cases.map(lostRequests).filter(Boolean);
}

/** A Redis fault may cost 503s and nothing else: the case's other errors as a reason, or null. */
function errorsBeyond503(c) {
  const other = Object.entries(c.load.errors).filter(([status]) => status !== '503');
  if (!other.length) return null;
  const counts = other.map(([s, n]) => `${n} × ${s === '0' ? 'no response' : `HTTP ${s}`}`);
  return `${c.name}: errors other than 503: ${counts.join(', ')}`;
}

module.exports = { checkScenario, observedCase, lossReasons, errorsBeyond503 };
