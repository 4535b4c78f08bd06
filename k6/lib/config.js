'use strict';
// Environment parsing for the k6 scripts (`k6 run -e NAME=value`). A bad value stops the script
// at init with a message that names the variable, instead of a silently wrong test. CommonJS, so
// the Node runner can load it too (through targets.js).

function envString(env, name, fallback) {
  const value = env[name];
  return value === undefined || value === '' ? fallback : String(value);
}

function envInt(env, name, fallback, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  const raw = envString(env, name, undefined);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, not '${raw}'`);
  const value = Number(raw);
  if (value < min || value > max) throw new Error(`${name} must be between ${min} and ${max}, not ${value}`);
  return value;
}

function envNumber(env, name, fallback, { min = 0, max = Number.MAX_VALUE } = {}) {
  const raw = envString(env, name, undefined);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new Error(`${name} must be a number between ${min} and ${max}, not '${raw}'`);
  }
  return value;
}

function envEnum(env, name, allowed, fallback) {
  const value = envString(env, name, fallback);
  if (!allowed.includes(value)) {
    throw new Error(`${name} must be one of ${allowed.join(', ')}, not '${value}'`);
  }
  return value;
}

function envBool(env, name, fallback) {
  const raw = envString(env, name, undefined);
  if (raw === undefined) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, not '${raw}'`);
}

const DURATION = /^(\d+(ms|s|m|h))+$/;
const DURATION_UNITS = { ms: 0.001, s: 1, m: 60, h: 3600 };

/** A k6 duration (`30s`, `1m30s`, `500ms`) in seconds, or null when it is not one. */
function durationSeconds(text) {
  if (!DURATION.test(String(text))) return null;
  return [...String(text).matchAll(/(\d+)(ms|s|m|h)/g)].reduce(
    (sum, [, n, unit]) => sum + n * DURATION_UNITS[unit],
    0,
  );
}

/** A k6 duration such as `30s`, `1m30s` or `500ms`. */
function envDuration(env, name, fallback) {
  const value = envString(env, name, fallback);
  if (durationSeconds(value) === null) {
    throw new Error(`${name} must be a duration such as 30s, 2m or 500ms, not '${value}'`);
  }
  return value;
}

module.exports = { envString, envInt, envNumber, envEnum, envBool, envDuration, durationSeconds };
