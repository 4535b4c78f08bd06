'use strict';
// Environment parsing for the k6 scripts (`k6 run -e NAME=value`), in the project's one grammar
// (grammar.js). A bad value stops the script at init with a message that names the variable.
// CommonJS, so the Node runner can load it too (through targets.js).
const { read, refusal } = require('./grammar.js');

/** The variable's text, trimmed as the grammar reads it; the fallback when unset or blank. */
function envString(env, name, fallback) {
  const value = env[name] === undefined ? '' : String(env[name]).trim();
  return value === '' ? fallback : value;
}

/** The variable read as `kind` (within min and max), the fallback when unset; throws naming it. */
function envValue(env, name, kind, fallback, range) {
  const raw = envString(env, name, undefined);
  if (raw === undefined) return fallback;
  const value = read(kind, raw, range);
  if (value === undefined) throw new Error(refusal(name, kind, raw, range));
  return value;
}

function envInt(env, name, fallback, { min = 0, max } = {}) {
  return envValue(env, name, 'integer', fallback, { min, max });
}

function envNumber(env, name, fallback, { min = 0, max } = {}) {
  return envValue(env, name, 'number', fallback, { min, max });
}

function envBool(env, name, fallback) {
  return envValue(env, name, 'boolean', fallback);
}

/** A comma-separated list (blanks dropped); the fallback when unset. */
function envList(env, name, fallback) {
  return envValue(env, name, 'list', fallback);
}

function envEnum(env, name, allowed, fallback) {
  const value = envString(env, name, fallback);
  if (!allowed.includes(value)) {
    throw new Error(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** A k6 duration such as `30s`, `1m30s` or `500ms`, as written: k6 reads it itself. */
function envDuration(env, name, fallback) {
  const value = envString(env, name, fallback);
  if (read('duration', value) === undefined) throw new Error(refusal(name, 'duration', value));
  return value;
}

/** A k6 duration (`30s`, `1m30s`, `500ms`) in seconds, or null when it is not one. */
function durationSeconds(text) {
  return read('duration', text) ?? null;
}

module.exports = { envString, envInt, envNumber, envList, envEnum, envBool, envDuration, durationSeconds };
