'use strict';
// Settings declared once per command, in a table (its format: lib/core/README.md) from which
// parsing, validation, error messages and --help are derived, so no default, range or choice list
// is written twice. Arguments are split by node:util parseArgs; every command refuses alike.
const { parseArgs } = require('node:util');
const { wrapLines } = require('./text');
const grammar = require('../../k6/lib/grammar');

const TYPES = ['string', 'enum', ...grammar.KINDS];
const WIDTH = 100;

/** A command used wrongly: bad or unknown options, bad settings. Commands exit 2 on it. */
class UsageError extends Error {
  constructor(message, { setting } = {}) {
    super(message);
    this.name = 'UsageError';
    this.exitCode = 2;
    if (setting) this.setting = setting;
  }
}

/**
 * A default computed from the other values (and the command's context), with the text --help
 * shows for it, e.g. derived('min(4, router cores)', (v, ctx) => ...).
 */
function derived(help, compute) {
  return Object.assign((values, context) => compute(values, context), { help });
}

/** Checks a table once, when a command declares it: mistakes here are the programmer's. */
function checkSettings(table) {
  const seen = new Set();
  for (const s of table) {
    const where = `setting ${JSON.stringify(s.name)}`;
    const problem =
      (!s.name && 'has no name') ||
      (!TYPES.includes(s.type) && `has an unknown type ${JSON.stringify(s.type)}`) ||
      (!s.flag && !s.env && 'comes from nowhere (no flag, no env)') ||
      (s.flag && !/^--[a-z][a-z0-9-]*$/.test(s.flag) && `has a bad flag ${s.flag}`) ||
      (!s.help && 'has no help') ||
      (typeof s.default === 'function' && !s.default.help && 'has a computed default without help') ||
      (s.type === 'enum' && !(s.choices && s.choices.length) && 'is an enum without choices') ||
      (s.choices && !['enum', 'list'].includes(s.type) && 'has choices but is neither an enum nor a list') ||
      // A list's first element must not silently become the default: an enum says its default.
      (s.type === 'enum' &&
        typeof s.default !== 'function' &&
        !s.choices.includes(s.default) &&
        `has a default outside its choices`) ||
      (s.type === 'list' &&
        s.choices &&
        Array.isArray(s.default) &&
        !s.default.every((item) => s.choices.includes(item)) &&
        'has a default outside its choices') ||
      ([s.name, s.flag, s.env].some((key) => key && seen.has(key)) && 'is declared twice');
    if (problem) throw new Error(`${where} ${problem}`);
    for (const key of [s.name, s.flag, s.env]) if (key) seen.add(key);
  }
  checkReferences(table);
  return table;
}

/** A quick default needs the quick setting; a constraint names settings of the same table. */
function checkReferences(table) {
  const names = new Set(table.map((s) => s.name));
  for (const s of table) {
    const unknown = [...toList(s.requires), ...Object.keys(s.onlyWith || {})].find(
      (name) => !names.has(name),
    );
    const problem =
      (s.quick !== undefined &&
        !names.has('quick') &&
        'has a quick default but the table has no quick setting') ||
      (unknown !== undefined && `has a constraint on ${JSON.stringify(unknown)}, which the table lacks`);
    if (problem) throw new Error(`setting ${JSON.stringify(s.name)} ${problem}`);
  }
}

const toList = (x) => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

/** '1 to 16' for a setting with both ends declared, for --help; null otherwise. */
function rangeText(s) {
  return s.min !== undefined && s.max !== undefined ? `${s.min} to ${s.max}` : null;
}

/** What a setting accepts, for messages and --help. */
function accepts(s) {
  if (s.type === 'string') return 'a non-empty value';
  if (s.type === 'enum') return `one of ${(s.choices || []).join(', ')}`;
  if (s.type === 'list' && s.choices) return `a comma-separated list of ${s.choices.join(', ')}`;
  return grammar.accepts(s.type, s);
}

/** One raw value (a string from argv or env, or a JSON value from a file) → the typed value. */
function convert(s, raw, label, context) {
  const refuse = () => {
    throw new UsageError(`${label} must be ${accepts(s)}, got ${JSON.stringify(raw)}`, { setting: label });
  };
  let value;
  if (s.type === 'string') value = typeof raw === 'string' && raw !== '' ? raw : refuse();
  else if (s.type === 'enum') {
    value = typeof raw === 'string' && s.choices.includes(raw.trim()) ? raw.trim() : refuse();
  } else value = grammar.read(s.type, raw, s) ?? refuse();
  if (s.type === 'list' && s.choices) value = pickChoices(s, value, label);
  if (!s.parse) return value;
  try {
    return s.parse(value, context);
  } catch (err) {
    // A hook may name the setting itself ("LAB_CPUS names core 9, ..."): that name is replaced
    // by where the value came from (a flag, a variable, a file's key).
    const own = [s.flag, s.env].find((name) => name && err.message.startsWith(name));
    const message = own ? label + err.message.slice(own.length) : `${label}: ${err.message}`;
    throw new UsageError(message, { setting: label });
  }
}

/**
 * A list's items checked against its choices: each chosen once, in the order of the choices (the
 * order a run takes them in, whatever order they were typed in).
 */
function pickChoices(s, items, label) {
  const bad = items.filter((item) => !s.choices.includes(item));
  if (bad.length) {
    const named = bad.map((item) => `'${item}'`).join(', ');
    throw new UsageError(
      `${label}: ${named} ${bad.length > 1 ? 'are' : 'is'} not one of ${s.choices.join(', ')}`,
      {
        setting: label,
      },
    );
  }
  return s.choices.filter((choice) => items.includes(choice));
}

/**
 * A layer of raw values by setting name, and how to name a setting of it in messages. An
 * `ambient` layer (the shell's environment) is not held against a constraint: a variable left
 * set for another command is no choice made for this one.
 */
const layer = (values, label, { ambient = false } = {}) => ({ values, label, ambient });

/**
 * argv → { help, layer, positionals }. Unknown options are refused by name; --help/-h is every
 * command's. `positionals`: the bare arguments the command takes, { count, name } (default none),
 * or { min, name } for at least `min`.
 */
function readArgv(table, argv, { positionals: wanted = { count: 0 } } = {}) {
  const byLong = new Map(table.filter((s) => s.flag).map((s) => [s.flag.slice(2), s]));
  const options = { help: { type: 'boolean', short: 'h' } };
  for (const [long, s] of byLong) {
    options[long] = { type: s.type === 'boolean' ? 'boolean' : 'string', ...(s.short && { short: s.short }) };
  }
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  // --help anywhere wins: whoever asks for help gets it, whatever else the line holds.
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help')) return { help: true };
  const values = {};
  const positionals = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const s = byLong.get(token.name);
    if (!s) throw new UsageError(`unknown option ${token.rawName} (see --help)`, { setting: token.rawName });
    if (s.type === 'boolean') {
      if (token.value !== undefined) {
        throw new UsageError(`${s.flag} takes no value, got ${JSON.stringify(token.value)}`, {
          setting: s.flag,
        });
      }
      values[s.name] = !(typeof s.default === 'boolean' && s.default);
    } else {
      // parseArgs would take `--vus --quick` as vus='--quick'; that is a forgotten value.
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) {
        throw new UsageError(`${s.flag} needs a value`, { setting: s.flag });
      }
      values[s.name] = token.value;
    }
  }
  if (wanted.min !== undefined && positionals.length < wanted.min) {
    throw new UsageError(`give at least ${wanted.min} ${wanted.name} (see --help)`);
  }
  if (wanted.min === undefined && positionals.length !== wanted.count) {
    throw new UsageError(
      wanted.count
        ? `give exactly ${wanted.count === 1 ? 'one' : wanted.count} ${wanted.name} (see --help)`
        : `unexpected argument ${positionals[0]} (see --help)`,
    );
  }
  return { help: false, layer: layer(values, (s) => s.flag), positionals };
}

/** The environment's values of the settings that read a variable; empty or blank = unset. */
function readEnv(table, env) {
  const values = {};
  for (const s of table) {
    const raw = s.env && env[s.env];
    if (raw !== undefined && String(raw).trim() !== '') values[s.name] = String(raw).trim();
  }
  return layer(values, (s) => s.env, { ambient: true });
}

/**
 * A JSON object's values (e.g. a file), keyed by keyOf(setting). Null means unset; a key no
 * setting has is refused, except those in `ignore`. Messages name `source` and the key.
 */
function readObject(table, object, { source, keyOf, ignore = [] }) {
  const byKey = new Map(table.filter((s) => keyOf(s)).map((s) => [keyOf(s), s]));
  const values = {};
  for (const [key, raw] of Object.entries(object)) {
    if (ignore.includes(key)) continue;
    const s = byKey.get(key);
    if (!s) {
      throw new UsageError(`${source}: unknown key ${key} (known: ${[...byKey.keys()].join(', ')})`, {
        setting: `${source}: ${key}`,
      });
    }
    if (raw !== null) values[s.name] = raw;
  }
  return layer(values, (s) => `${source}: ${keyOf(s)}`);
}

/**
 * The values of every setting: from the first layer that has it (validated and converted), else
 * its default, or its `quick` default when the quick setting is on; computed defaults run last, in
 * table order, and see every value before them. Then the constraints between settings are
 * checked (checkConstraints). Returns { values, given } (`given`: the names some layer set).
 */
function resolve(table, layers, context = {}) {
  const values = {};
  const given = new Set();
  const chosen = new Map(); // name → how its source names it
  for (const s of table) {
    const from = layers.find((l) => l.values[s.name] !== undefined);
    if (from) {
      values[s.name] = convert(s, from.values[s.name], from.label(s), context);
      given.add(s.name);
      if (!from.ambient || !s.flag) chosen.set(s.name, from.label(s));
    } else if (typeof s.default !== 'function') {
      values[s.name] = s.default !== undefined ? s.default : s.type === 'boolean' ? false : null;
    }
  }
  for (const s of table) {
    if (given.has(s.name)) continue;
    if (s.quick !== undefined && values.quick) values[s.name] = s.quick;
    else if (typeof s.default === 'function') values[s.name] = s.default(values, context);
  }
  checkConstraints(table, values, chosen);
  return { values, given };
}

/** A value that says something: not unset, not a switch left off. */
const isSet = (value) => value !== undefined && value !== null && value !== false;

/** How a constraint names the other setting: its flag, else its variable, with a value if any. */
function otherText(s, value) {
  if (s.flag) return value === undefined ? s.flag : `${s.flag} ${value}`;
  return value === undefined ? s.env : `${s.env}=${value}`;
}

/**
 * The declared constraints of the settings chosen for this command (`chosen`: name → how its
 * source names it): `requires` (names of settings this one needs set too) and `onlyWith`
 * ({ name: value or [values] }: this one means something only with those values). `because` is
 * added to the message. Throws UsageError naming the setting as its source does.
 */
function checkConstraints(table, values, chosen) {
  const byName = new Map(table.map((s) => [s.name, s]));
  for (const s of table) {
    const label = chosen.get(s.name);
    if (label === undefined || !isSet(values[s.name])) continue;
    const why = s.because ? `: ${s.because}` : '';
    const missing = toList(s.requires).find((name) => !isSet(values[name]));
    if (missing) {
      throw new UsageError(`${label} needs ${otherText(byName.get(missing))}${why}`, { setting: label });
    }
    for (const [name, allowed] of Object.entries(s.onlyWith || {})) {
      if (toList(allowed).includes(values[name])) continue;
      const other = otherText(byName.get(name), toList(allowed).join('|'));
      throw new UsageError(`${label} is for ${other} only${why}`, { setting: label });
    }
  }
}

// --- help ----------------------------------------------------------------------------------------

/** The default as --help shows it, or null when there is nothing to show. */
function shownDefault(s) {
  const normal = typeof s.default === 'function' ? helpText(s.default.help) : shownValue(s, s.default);
  return s.quick === undefined ? normal : `${normal ?? 'unset'}, --quick ${shownValue(s, s.quick)}`;
}

/** A value as --help writes it: a list with commas, seconds with their unit; null for none. */
function shownValue(s, value) {
  if (s.type === 'boolean' || value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.join(',');
  return s.type === 'seconds' ? `${value}s` : String(value);
}

/** A computed default's help: text, or a function giving it when --help is printed (a file read). */
const helpText = (help) => (typeof help === 'function' ? help() : help);

const OPTION_COLUMN = 24;

/** One option: its flag and value name, then its help with the default and range. */
function optionHelp(s) {
  const arg = s.type === 'boolean' ? '' : ` ${s.arg || (s.type === 'enum' ? s.choices.join('|') : 'VALUE')}`;
  const spec = `  ${s.short ? `-${s.short}, ` : ''}${s.flag}${arg}`;
  const notes = [
    ((s.type === 'enum' && s.arg) || (s.type === 'list' && s.choices)) && accepts(s),
    shownDefault(s) !== null && `default ${shownDefault(s)}`,
    rangeText(s),
  ].filter(Boolean);
  const text = `${s.help}${notes.length ? ` (${notes.join('; ')})` : ''}`;
  const [first, ...rest] = wrapLines(text, WIDTH - OPTION_COLUMN);
  const pad = ' '.repeat(OPTION_COLUMN);
  const head = spec.length < OPTION_COLUMN - 1 ? [spec.padEnd(OPTION_COLUMN) + first] : [spec, pad + first];
  return [...head, ...rest.map((l) => pad + l)].join('\n');
}

/** The options section of --help: every flag setting, then -h. */
function optionsHelp(table) {
  const help = { flag: '--help', short: 'h', type: 'boolean', help: 'this text' };
  return [...table.filter((s) => s.flag), help].map(optionHelp).join('\n');
}

/** The environment section of --help: each variable with its default and what it accepts. */
function environmentHelp(table) {
  return table
    .filter((s) => s.env)
    .map((s) => {
      const range = s.choices ? accepts(s) : rangeText(s);
      const head = `  ${s.env} (default: ${shownDefault(s) ?? 'unset'}${range ? `; ${range}` : ''})`;
      return [head, ...wrapLines(s.help, WIDTH - 6).map((l) => `      ${l}`)].join('\n');
    })
    .join('\n');
}

/**
 * A command: its usage line, description, settings (flags), bare arguments and the variables it
 * reads (shown in --help). Returns { settings, help(), parse(argv, { env, context }) }, where
 * parse gives { help: true } or { values, given, positionals } and throws UsageError; `env`
 * (default process.env) serves the settings that declare a variable.
 */
function defineCommand({
  usage,
  description = '',
  settings = [],
  optionsTitle = 'Options:',
  positionals,
  environment = null,
  epilogue = '',
}) {
  checkSettings(settings);
  const help = () =>
    [
      `Usage: ${usage}`,
      // A function when the text needs work (reading a catalogue): done only when help is asked for.
      typeof description === 'function' ? description() : description,
      `${optionsTitle}\n${optionsHelp(settings)}`,
      environment && `${environment.title}\n${environmentHelp(environment.settings)}`,
      epilogue,
    ]
      .filter(Boolean)
      .join('\n\n');
  const parse = (argv, { env = process.env, context } = {}) => {
    const cli = readArgv(settings, argv, { positionals });
    if (cli.help) return { help: true };
    return {
      ...resolve(settings, [cli.layer, readEnv(settings, env)], context),
      positionals: cli.positionals,
    };
  };
  return { settings, help, parse };
}

/**
 * For a bin/ entry point: parses argv (with `parse`, default the command's own), prints --help and
 * exits 0, or prints a usage error as "<name>: <message>" and exits 2. Returns what parse gave.
 */
function commandLine(command, argv, { name, parse = (args) => command.parse(args) }) {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${name}: ${err.message}`);
    process.exit(err.exitCode);
  }
  if (parsed.help) {
    console.log(command.help());
    process.exit(0);
  }
  return parsed;
}

module.exports = {
  UsageError,
  derived,
  checkSettings,
  defineCommand,
  commandLine,
  readArgv,
  readEnv,
  readObject,
  resolve,
};
