'use strict';
// Cells from a list of axes (axes.js declares the matrix's): a cell's values, its name both ways,
// its k6 tags and variables, and the regex of its names. A function of the list, so that a test
// can declare one more axis and see it flow through. Plain CommonJS: k6 loads it too.
const { envString } = require('./config.js');

const applies = (axis, cell) => !axis.appliesTo || axis.appliesTo(cell);
/** A value as its part of a cell name: '1k' for 1024 bytes. */
const tokenOf = (axis, value) => (axis.token ? axis.token(value) : String(value));
/** Whether every cell has the axis's part in its name: the parts a name and a pattern begin with. */
const isRequired = (axis) => !axis.appliesTo && (axis.inName || 'always') === 'always';
const inName = (axis, value) =>
  value !== null && !(axis.inName === 'unlessDefault' && value === axis.default);
/** A name token as the axis's value: a closed axis's as it is, an open one's read (throws). */
const readToken = (axis, token) => (axis.values ? token : axis.read(token));
const hasValue = (cell, axis) => (cell[axis.key] ?? null) !== null;

/** A closed axis's token as its value, or throws `message`. */
function closedValue(axis, token, message) {
  if (!axis.values.includes(token)) throw new Error(message);
  return token;
}

/** 'edge:1k:close:full': the parts of the axes the cell has, in order. */
function cellName(axes, cell) {
  const parts = [];
  const seen = {};
  for (const axis of axes) {
    const value = applies(axis, seen) ? (cell[axis.key] ?? null) : null;
    seen[axis.key] = value;
    if (inName(axis, value)) parts.push(tokenOf(axis, value));
  }
  return parts.join(':');
}

/**
 * A cell from its axes' values ({ termination, pageSize, connection, tlsSession }): an axis the
 * cell does not have is null, one it has but `values` leaves unset takes its default (an older
 * record, from before the axis). { name, ...values }.
 */
function cellOf(axes, values) {
  const cell = {};
  for (const axis of axes) cell[axis.key] = applies(axis, cell) ? (values[axis.key] ?? axis.default) : null;
  return { name: cellName(axes, cell), ...cell };
}

/** An optional axis's value from a name's remaining parts (taking its part from `rest`). */
function optionalValue(axis, cell, rest, fail) {
  if (!applies(axis, cell)) return null;
  const isValue = rest.length > 0 && (!axis.values || axis.values.includes(rest[0]));
  if (axis.inName === 'unlessDefault') {
    return isValue && rest[0] !== tokenOf(axis, axis.default) ? readToken(axis, rest.shift()) : axis.default;
  }
  if (!isValue) fail(`: ${axis.missing(cell)}`);
  return readToken(axis, rest.shift());
}

/**
 * 'edge:1k:close:full' → { name, termination, pageSize, connection, tlsSession }: null for an
 * axis the cell does not have. Throws on a bad name, naming it.
 */
function parseCellName({ axes, required, optional, shape, nameExamples }, name) {
  const tokens = String(name).split(':');
  const fail = (why) => {
    throw new Error(`cell '${name}'${why}`);
  };
  const badShape = ` must be ${shape}${nameExamples.length ? `, e.g. ${nameExamples.join(' or ')}` : ''}`;
  if (tokens.length < required.length || tokens.length > axes.length) fail(badShape);
  const cell = {};
  const rest = tokens.slice(required.length);
  // The closed parts first, in order (whether an optional part belongs depends on them), then
  // the open ones (page size), whose reading has its own message.
  for (const axis of axes) {
    if (isRequired(axis) && axis.values) {
      const oneOf = `: ${axis.part} must be one of ${axis.values.join(', ')}`;
      cell[axis.key] = closedValue(axis, tokens[required.indexOf(axis)], `cell '${name}'${oneOf}`);
    } else if (!isRequired(axis)) {
      cell[axis.key] = optionalValue(axis, cell, rest, fail);
    }
  }
  if (rest.length) {
    // A part the cell cannot have: named by the axis it belongs to, else the first it lacks.
    const lacking = optional.filter((a) => !applies(a, cell));
    const extra = lacking.find((a) => !a.values || a.values.includes(rest[0])) || lacking[0];
    fail(extra ? `: ${extra.notApplicable}` : badShape);
  }
  for (const axis of required.filter((a) => !a.values)) {
    cell[axis.key] = axis.read(tokens[required.indexOf(axis)]);
  }
  return cellOf(axes, cell);
}

/** The cell the script's environment names (each variable unset: its axis's default); throws naming a bad one. */
function readCellVariables(axes, env) {
  const cell = {};
  for (const axis of axes) {
    const raw = applies(axis, cell) ? envString(env, axis.variable, undefined) : undefined;
    if (!applies(axis, cell)) cell[axis.key] = null;
    else if (raw === undefined) cell[axis.key] = axis.default;
    else if (!axis.values) cell[axis.key] = axis.read(raw);
    else {
      const message = `${axis.variable} must be one of ${axis.values.join(', ')}, got ${JSON.stringify(raw)}`;
      cell[axis.key] = closedValue(axis, raw, message);
    }
  }
  return cellOf(axes, cell);
}

/** The regex of every cell name (results.json's schema holds it: a test compares). */
function namePattern(axes) {
  // An axis named only off its default has a part for its other values alone.
  const named = (axis) => axis.values.filter((v) => axis.inName !== 'unlessDefault' || v !== axis.default);
  const one = (axis) => (axis.values ? `(${named(axis).join('|')})` : axis.pattern);
  const parts = axes.map((axis) => (isRequired(axis) ? one(axis) : `(:${one(axis)})?`));
  return `^${parts.map((p, i) => (i && !p.startsWith('(:') ? `:${p}` : p)).join('')}$`;
}

/**
 * The vocabulary of cells over `axes`: cellName(cell), parseCellName(name), cellOf(values),
 * valuesOf(cell) (its axes alone: what a record stores beside its name), cellTags(cell) (the tags
 * of its k6 metrics), cellVariables(cell) (the router-matrix script's environment: TERMINATION,
 * PAGE_SIZE in bytes, …) and readCellVariables(env) back, namePattern(), and what --cells needs.
 */
function cellVocabulary(axes, { nameExamples = [], patternExamples = [] } = {}) {
  const required = axes.filter(isRequired);
  const optional = axes.filter((axis) => !isRequired(axis));
  const shape = `${required.map((a) => a.part).join(':')}${optional.map((a) => `[:${a.part}]`).join('')}`;
  const context = { axes, required, optional, shape, nameExamples };
  const present = (cell) => axes.filter((axis) => hasValue(cell, axis));
  return {
    axes,
    required,
    optional,
    shape,
    patternExamples,
    applies,
    cellName: (cell) => cellName(axes, cell),
    parseCellName: (name) => parseCellName(context, name),
    cellOf: (values) => cellOf(axes, values),
    valuesOf: (cell) => Object.fromEntries(axes.map((axis) => [axis.key, cell[axis.key] ?? null])),
    cellTags: (cell) => ({
      cell: cellName(axes, cell),
      ...Object.fromEntries(present(cell).map((axis) => [axis.tag, tokenOf(axis, cell[axis.key])])),
    }),
    cellVariables: (cell) =>
      Object.fromEntries(present(cell).map((axis) => [axis.variable, String(cell[axis.key])])),
    readCellVariables: (env) => readCellVariables(axes, env),
    namePattern: () => namePattern(axes),
  };
}

module.exports = { cellVocabulary, applies, tokenOf };
