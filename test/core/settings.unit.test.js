'use strict';
// lib/core/settings.js: one declaration table gives parsing, validation, defaults and --help.
const {
  UsageError,
  derived,
  checkSettings,
  defineCommand,
  readArgv,
  readEnv,
  readObject,
  resolve,
} = require('../../lib/core/settings');

const TABLE = [
  { name: 'name', flag: '--name', short: 'n', type: 'string', default: 'lab', help: 'a name' },
  {
    name: 'count',
    flag: '--count',
    arg: 'N',
    type: 'integer',
    min: 1,
    max: 16,
    default: 2,
    help: 'how many',
  },
  { name: 'pause', flag: '--pause', arg: 'S', type: 'number', min: 0, default: 0.5, help: 'seconds' },
  { name: 'fast', flag: '--fast', type: 'boolean', help: 'go fast' },
  { name: 'report', flag: '--no-report', type: 'boolean', default: true, help: 'no report' },
  { name: 'mode', flag: '--mode', type: 'enum', choices: ['a', 'b'], default: 'b', help: 'a mode' },
  { name: 'sizes', flag: '--sizes', arg: 'LIST', type: 'list', default: ['1k'], help: 'sizes' },
  {
    name: 'rounds',
    flag: '--rounds',
    arg: 'N',
    type: 'integer',
    min: 1,
    default: derived('3, --fast 1', (v) => (v.fast ? 1 : 3)),
    help: 'rounds',
  },
  { name: 'replicas', env: 'X_REPLICAS', type: 'integer', min: 1, max: 4, default: 2, help: 'replicas' },
  {
    name: 'threads',
    env: 'X_THREADS',
    type: 'integer',
    min: 1,
    default: derived('min(4, cores)', (_v, { cores }) => Math.min(4, cores)),
    help: 'threads',
  },
];
const command = defineCommand({ usage: 'test [options]', description: 'A test command.', settings: TABLE });
const parse = (argv, env = {}) => command.parse(argv, { env, context: { cores: 2 } });

describe('types and ranges', () => {
  test('defaults when nothing is given', () => {
    expect(parse([]).values).toEqual({
      name: 'lab',
      count: 2,
      pause: 0.5,
      fast: false,
      report: true,
      mode: 'b',
      sizes: ['1k'],
      rounds: 3,
      replicas: 2,
      threads: 2,
    });
  });

  test('each type converts its value; a boolean flag flips its default', () => {
    const { values, given } = parse(['-n', 'x', '--count=16', '--pause', '1.5', '--fast', '--no-report']);
    expect(values).toMatchObject({ name: 'x', count: 16, pause: 1.5, fast: true, report: false });
    expect([...given].sort()).toEqual(['count', 'fast', 'name', 'pause', 'report']);
    expect(parse(['--mode', 'a', '--sizes', '1k, 4k,,']).values).toMatchObject({
      mode: 'a',
      sizes: ['1k', '4k'],
    });
  });

  test.each([
    [['--count', '0'], '--count must be an integer from 1 to 16, got "0"'],
    [['--count', '17'], '--count must be an integer from 1 to 16, got "17"'],
    [['--count', '1.5'], '--count must be an integer from 1 to 16, got "1.5"'],
    [['--rounds', 'x'], '--rounds must be a positive integer, got "x"'],
    [['--pause', '-1'], '--pause must be a number ≥ 0, got "-1"'],
    [['--mode', 'c'], '--mode must be one of a, b, got "c"'],
    [['--sizes', ','], '--sizes must be a comma-separated list, got ","'],
    [['--count'], '--count needs a value'],
    [['--count', '--fast'], '--count needs a value'],
    [['--fast=yes'], '--fast takes no value, got "yes"'],
    [['--frobnicate'], 'unknown option --frobnicate (see --help)'],
    [['-x'], 'unknown option -x (see --help)'],
    [['stray'], 'unexpected argument stray (see --help)'],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parse(argv)).toThrow(UsageError);
    expect(() => parse(argv)).toThrow(message);
  });

  test('a usage error exits 2', () => {
    expect(new UsageError('x').exitCode).toBe(2);
  });
});

describe('the environment as a source', () => {
  test('a variable sets its setting; blank is unset; errors name the variable', () => {
    expect(parse([], { X_REPLICAS: ' 3 ' }).values.replicas).toBe(3);
    expect(parse([], { X_REPLICAS: '  ' }).values.replicas).toBe(2);
    expect(() => parse([], { X_REPLICAS: 'two' })).toThrow(
      'X_REPLICAS must be an integer from 1 to 4, got "two"',
    );
  });

  test('readEnv reads only the declared variables', () => {
    expect(readEnv(TABLE, { X_REPLICAS: '4', X_OTHER: '1', count: '3' }).values).toEqual({
      replicas: 4 + '',
    });
  });
});

describe('the grammar (k6/lib/grammar.js) behind the types', () => {
  const GRAMMAR = [
    { name: 'http2', env: 'X_HTTP2', type: 'boolean', help: 'h2' },
    { name: 'soak', flag: '--soak', type: 'seconds', min: 2, default: 60, help: 'soak' },
    { name: 'page', flag: '--page', type: 'size', max: 1048576, default: 1024, help: 'page' },
  ];
  const grammarCommand = defineCommand({ usage: 'g', settings: GRAMMAR });
  const values = (argv, env = {}) => grammarCommand.parse(argv, { env }).values;

  test.each([
    ['true', true],
    ['Yes', true],
    ['ON', true],
    ['1', true],
    ['false', false],
    ['no', false],
    ['off', false],
    ['0', false],
  ])('a boolean variable takes %j', (raw, expected) => {
    expect(values([], { X_HTTP2: raw }).http2).toBe(expected);
  });

  test('seconds take a bare number or a duration; sizes take k and m', () => {
    expect(values(['--soak', '90', '--page', '4k'])).toMatchObject({ soak: 90, page: 4096 });
    expect(values(['--soak', '1m30s', '--page', '1m'])).toMatchObject({ soak: 90, page: 1048576 });
  });

  test.each([
    [[], { X_HTTP2: 'maybe' }, 'X_HTTP2 must be true or false (also yes/no, on/off, 1/0), got "maybe"'],
    [
      ['--soak', '1s'],
      {},
      '--soak must be a number of seconds or a duration such as 30s, 1m30s or 500ms, ≥ 2 s',
    ],
    [['--soak', 'forever'], {}, 'got "forever"'],
    [['--page', '2m'], {}, '--page must be a size such as 1024, 4k or 1m, ≤ 1048576 bytes, got "2m"'],
  ])('%j %j is refused: %s', (argv, env, message) => {
    expect(() => values(argv, env)).toThrow(UsageError);
    expect(() => values(argv, env)).toThrow(message);
  });
});

describe('defaults as functions', () => {
  test('see the other values and the context, and yield to a given value', () => {
    expect(parse(['--fast']).values.rounds).toBe(1);
    expect(parse(['--fast', '--rounds', '5']).values.rounds).toBe(5);
    expect(command.parse([], { context: { cores: 8 } }).values.threads).toBe(4);
    expect(parse([], { X_THREADS: '3' }).values.threads).toBe(3);
  });
});

describe('layers: the command line over a file over the environment', () => {
  test('a file is validated with its name and key in the message', () => {
    const file = readObject(TABLE, { howMany: 3, mode: null }, { source: 'f.json', keyOf: fileKey });
    expect(resolve(TABLE, [file], { cores: 1 }).values).toMatchObject({ count: 3, mode: 'b' });
    const bad = readObject(TABLE, { howMany: 99 }, { source: 'f.json', keyOf: fileKey });
    expect(() => resolve(TABLE, [bad], { cores: 1 })).toThrow(
      'f.json: howMany must be an integer from 1 to 16, got 99',
    );
    expect(() => readObject(TABLE, { colour: 1 }, { source: 'f.json', keyOf: fileKey })).toThrow(
      'f.json: unknown key colour (known: howMany, mode, replicas)',
    );
  });

  test('the first layer that has a value wins', () => {
    const file = readObject(TABLE, { howMany: 3, replicas: 3 }, { source: 'f.json', keyOf: fileKey });
    const env = readEnv(TABLE, { X_REPLICAS: '4' });
    const flags = readArgv(TABLE, ['--count', '5']).layer;
    const { values, given } = resolve(TABLE, [flags, file, env], { cores: 1 });
    expect(values).toMatchObject({ count: 5, replicas: 3 });
    expect(given).toEqual(new Set(['count', 'replicas']));
    expect(resolve(TABLE, [env], { cores: 1 }).values.replicas).toBe(4);
  });
});
const fileKey = (s) => ({ count: 'howMany', mode: 'mode', replicas: 'replicas' })[s.name];

describe('declarations', () => {
  test.each([
    [{ name: 'a', flag: '--a', type: 'color', help: 'h' }, /unknown type "color"/],
    [{ name: 'a', type: 'string', help: 'h' }, /comes from nowhere/],
    [{ name: 'a', flag: '--a', type: 'string' }, /has no help/],
    [
      { name: 'a', flag: '--a', type: 'integer', default: () => 1, help: 'h' },
      /computed default without help/,
    ],
    // The first choice does not silently become the default: an enum declares it.
    [{ name: 'a', flag: '--a', type: 'enum', choices: ['x', 'y'], help: 'h' }, /default outside its choices/],
  ])('a bad declaration is refused: %j', (setting, message) => {
    expect(() => checkSettings([setting])).toThrow(message);
  });

  test('a flag declared twice is refused', () => {
    const a = { name: 'a', flag: '--a', type: 'string', help: 'h' };
    expect(() => checkSettings([a, { ...a, name: 'b' }])).toThrow(/declared twice/);
  });
});

describe('--help', () => {
  test('lists every setting with its declared default, and -h', () => {
    expect(parse(['--count', 'bad', '--help'])).toEqual({ help: true });
    expect(parse(['-h'])).toEqual({ help: true });
    const help = command.help();
    expect(help).toMatch(/^Usage: test \[options\]\n\nA test command\.\n\nOptions:\n/);
    for (const s of TABLE.filter((t) => t.flag)) expect(help).toContain(s.flag);
    expect(help).toMatch(/-n, --name VALUE +a name \(default lab\)/);
    expect(help).toMatch(/--count N +how many \(default 2; 1 to 16\)/);
    expect(help).toMatch(/--mode a\|b +a mode \(default b\)/);
    expect(help).toMatch(/--sizes LIST +sizes \(default 1k\)/);
    expect(help).toMatch(/--rounds N +rounds \(default 3, --fast 1\)/);
    expect(help).toMatch(/--no-report +no report\n/);
    expect(help).toMatch(/-h, --help +this text/);
  });

  test('an environment section lists each variable with its default and range', () => {
    const withEnv = defineCommand({
      usage: 'x',
      settings: [],
      environment: { title: 'Environment:', settings: TABLE },
    });
    expect(withEnv.help()).toContain(
      'Environment:\n  X_REPLICAS (default: 2; 1 to 4)\n      replicas\n  X_THREADS (default: min(4, cores))\n      threads',
    );
  });
});

test('positional arguments: an exact count, or at least a minimum, each refused by name', () => {
  const exact = defineCommand({ usage: 'x <a> <b>', positionals: { count: 2, name: 'files' } });
  expect(exact.parse(['a', 'b']).positionals).toEqual(['a', 'b']);
  expect(() => exact.parse(['a'])).toThrow(/give exactly 2 files/);
  const many = defineCommand({ usage: 'x <a> <b> …', positionals: { min: 2, name: 'runs' } });
  expect(many.parse(['a', 'b', 'c']).positionals).toEqual(['a', 'b', 'c']);
  expect(() => many.parse(['a'])).toThrow(/give at least 2 runs/);
});

describe('a list with choices', () => {
  const lists = defineCommand({
    usage: 'lists',
    settings: [
      {
        name: 'kinds',
        flag: '--kinds',
        arg: 'LIST',
        type: 'list',
        choices: ['a', 'b', 'c'],
        default: ['a', 'b'],
        help: 'kinds',
      },
    ],
  });

  test('takes its items once each, in the order of the choices', () => {
    expect(lists.parse([]).values.kinds).toEqual(['a', 'b']);
    expect(lists.parse(['--kinds', 'c, a,c']).values.kinds).toEqual(['a', 'c']);
  });

  test('refuses items outside the choices, naming them and the choices', () => {
    expect(() => lists.parse(['--kinds', 'a,x'])).toThrow("--kinds: 'x' is not one of a, b, c");
    expect(() => lists.parse(['--kinds', 'y,b,x'])).toThrow("--kinds: 'y', 'x' are not one of a, b, c");
    expect(() => lists.parse(['--kinds', ','])).toThrow(
      '--kinds must be a comma-separated list of a, b, c, got ","',
    );
  });

  test('--help says what it accepts; a default outside the choices is refused', () => {
    expect(lists.help()).toMatch(/--kinds LIST +kinds \(a comma-separated list of a, b, c; default a,b\)/);
    expect(() =>
      checkSettings([{ name: 'k', flag: '--k', type: 'list', choices: ['a'], default: ['b'], help: 'k' }]),
    ).toThrow('setting "k" has a default outside its choices');
    expect(() =>
      checkSettings([{ name: 'k', flag: '--k', type: 'integer', choices: ['a'], help: 'k' }]),
    ).toThrow('setting "k" has choices but is neither an enum nor a list');
  });
});

describe('quick defaults', () => {
  const timed = defineCommand({
    usage: 'timed',
    settings: [
      { name: 'quick', flag: '--quick', type: 'boolean', help: 'short' },
      { name: 'rounds', flag: '--rounds', type: 'integer', min: 1, default: 10, quick: 3, help: 'rounds' },
      { name: 'soak', flag: '--soak', type: 'seconds', default: 60, quick: 20, help: 'soak' },
      {
        name: 'total',
        flag: '--total',
        type: 'integer',
        default: derived('rounds x 2', (v) => v.rounds * 2),
        help: 'total',
      },
    ],
  });

  test('apply with --quick, yield to a given value, and computed defaults see them', () => {
    expect(timed.parse([]).values).toMatchObject({ rounds: 10, soak: 60, total: 20 });
    expect(timed.parse(['--quick']).values).toMatchObject({ rounds: 3, soak: 20, total: 6 });
    expect(timed.parse(['--quick', '--rounds', '5']).values).toMatchObject({
      rounds: 5,
      soak: 20,
      total: 10,
    });
  });

  test('--help shows both defaults; a quick default needs a quick setting', () => {
    expect(timed.help()).toMatch(/--rounds VALUE +rounds \(default 10, --quick 3\)/);
    expect(timed.help()).toMatch(/--soak VALUE +soak \(default 60s, --quick 20s\)/);
    expect(() =>
      checkSettings([{ name: 'r', flag: '--r', type: 'integer', default: 2, quick: 1, help: 'r' }]),
    ).toThrow('setting "r" has a quick default but the table has no quick setting');
  });
});

describe('constraints between settings', () => {
  const TABLE_C = [
    {
      name: 'target',
      flag: '--target',
      type: 'enum',
      choices: ['lab', 'cluster'],
      default: 'lab',
      help: 't',
    },
    { name: 'rate', flag: '--rate', type: 'integer', min: 1, help: 'rate' },
    { name: 'ceiling', flag: '--ceiling', type: 'integer', min: 1, requires: 'rate', help: 'c' },
    {
      name: 'domain',
      flag: '--domain',
      env: 'X_DOMAIN',
      type: 'string',
      onlyWith: { target: 'cluster' },
      because: 'the lab has its own',
      help: 'd',
    },
    {
      name: 'router',
      env: 'X_ROUTER',
      type: 'enum',
      choices: ['template', 'real'],
      default: 'template',
      help: 'r',
    },
    { name: 'dcm', env: 'X_DCM', type: 'boolean', onlyWith: { router: 'real' }, help: 'dcm' },
  ];
  const constrained = defineCommand({ usage: 'c', settings: TABLE_C });
  const parseC = (argv, env = {}) => constrained.parse(argv, { env });

  test('requires: a setting that needs another names both', () => {
    expect(() => parseC(['--ceiling', '8'])).toThrow(/^--ceiling needs --rate$/);
    expect(parseC(['--ceiling', '8', '--rate', '100']).values).toMatchObject({ ceiling: 8, rate: 100 });
  });

  test('onlyWith: a setting meaningful only with a value of another names both, and why', () => {
    expect(() => parseC(['--domain', 'x'])).toThrow(
      '--domain is for --target cluster only: the lab has its own',
    );
    expect(parseC(['--domain', 'x', '--target', 'cluster']).values.domain).toBe('x');
    expect(() => parseC([], { X_DCM: 'true' })).toThrow(/^X_DCM is for X_ROUTER=real only$/);
    expect(parseC([], { X_DCM: 'false' }).values.dcm).toBe(false);
    expect(parseC([], { X_DCM: '1', X_ROUTER: 'real' }).values.dcm).toBe(true);
  });

  test('a variable left in the environment is not held against a setting that has a flag', () => {
    expect(parseC([], { X_DOMAIN: 'apps.example.com' }).values.domain).toBe('apps.example.com');
  });

  test('a constraint on a setting the table lacks is refused at declaration', () => {
    expect(() =>
      checkSettings([{ name: 'a', flag: '--a', type: 'string', requires: 'b', help: 'a' }]),
    ).toThrow('setting "a" has a constraint on "b", which the table lacks');
  });
});

test('work for --help only is done when --help is printed: a description or default given as a function', () => {
  const read = jest.fn(() => 'from a file');
  const lazy = defineCommand({
    usage: 'lazy',
    description: () => `described ${read()}`,
    settings: [{ name: 'x', flag: '--x', type: 'string', default: derived(read, () => read()), help: 'x' }],
  });
  expect(read).not.toHaveBeenCalled();
  expect(lazy.help()).toMatch(/described from a file[\s\S]*--x VALUE +x \(default from a file\)/);
});
