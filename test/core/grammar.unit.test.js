'use strict';
// The settings grammar: one table of accepted and refused values, run against k6/lib/grammar.js
// (the lab's, matrix's and k6 scripts' settings) and the data service's copy, which ships alone.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');

const SHARED = path.join(ROOT, 'k6/lib/grammar.js');
const COPY = path.join(ROOT, 'data-service/src/grammar.js');

// [kind, raw, expected value (undefined: refused), range]
const TABLE = [
  ...[
    ['true', true],
    ['TRUE', true],
    [' yes ', true],
    ['On', true],
    ['1', true],
    [true, true],
  ].map(([raw, value]) => ['boolean', raw, value]),
  ...[
    ['false', false],
    ['No', false],
    ['off', false],
    ['0', false],
    [false, false],
  ].map(([raw, value]) => ['boolean', raw, value]),
  ...['maybe', '', 'y', '2', 'truee', 'constructor', null, []].map((raw) => ['boolean', raw, undefined]),
  ['integer', '16', 16],
  ['integer', ' 3 ', 3],
  ['integer', '-2', -2],
  ['integer', 7, 7],
  ...['1.5', '1e3', 'x', '', '0x10', '5 5', null, true].map((raw) => ['integer', raw, undefined]),
  ['integer', '0', undefined, { min: 1, max: 16 }],
  ['integer', '17', undefined, { min: 1, max: 16 }],
  ['integer', '16', 16, { min: 1, max: 16 }],
  ['number', '1.5', 1.5],
  ['number', '.5', 0.5],
  ['number', '2.', 2],
  ['number', '1e-3', 0.001],
  ['number', 0.25, 0.25],
  ['number', '-1', undefined, { min: 0 }],
  ...['', 'NaN', 'Infinity', '0x10', '1,5', '.', 'e3'].map((raw) => ['number', raw, undefined]),
  ['duration', '30s', 30],
  ['duration', '1m30s', 90],
  ['duration', '500ms', 0.5],
  ['duration', '2h', 7200],
  ['duration', ' 10m ', 600],
  ...['30', '1.5s', '30S', '5 minutes', 'forever', '', '1d', 30].map((raw) => ['duration', raw, undefined]),
  ['seconds', '60', 60],
  ['seconds', 2.5, 2.5],
  ['seconds', '10m', 600],
  ['seconds', '1s', undefined, { min: 2 }],
  ...['forever', '', '-'].map((raw) => ['seconds', raw, undefined]),
  ['size', '1024', 1024],
  ['size', '1k', 1024],
  ['size', '4K', 4096],
  ['size', '1m', 1048576],
  ['size', 512, 512],
  ...['1.5k', 'big', '1g', '1kb', '', '-1'].map((raw) => ['size', raw, undefined]),
  ['list', 'a,b', ['a', 'b']],
  ['list', ' 1k, 4k,, ', ['1k', '4k']],
  ['list', ['x ', ' y'], ['x', 'y']],
  ...[',', '', ' , ', ['a', 1], 5].map((raw) => ['list', raw, undefined]),
];

describe.each([
  ['k6/lib/grammar.js', SHARED],
  ['data-service/src/grammar.js', COPY],
])('%s', (_name, file) => {
  const grammar = require(file);

  // One argument, so that jest does not take a row's missing range for a `done` callback.
  test.each(TABLE.map((row) => [row]))('%j', ([kind, raw, expected, range]) => {
    expect(grammar.read(kind, raw, range)).toEqual(expected);
  });

  test('a refusal names the setting and says what it accepts', () => {
    expect(grammar.refusal('RATE', 'integer', 'lots', { min: 1 })).toBe(
      'RATE must be a positive integer, got "lots"',
    );
    expect(grammar.refusal('--count', 'integer', '0', { min: 1, max: 16 })).toBe(
      '--count must be an integer from 1 to 16, got "0"',
    );
    expect(grammar.refusal('X', 'boolean', 'maybe')).toBe(
      'X must be true or false (also yes/no, on/off, 1/0), got "maybe"',
    );
    expect(grammar.refusal('--soak', 'seconds', '1s', { min: 2 })).toBe(
      '--soak must be a number of seconds or a duration such as 30s, 1m30s or 500ms, ≥ 2 s, got "1s"',
    );
    expect(() => grammar.read('colour', 'red')).toThrow('no kind of value called "colour"');
  });
});

test('the data service keeps an identical copy, so the two cannot drift', () => {
  expect(fs.readFileSync(COPY, 'utf8')).toBe(fs.readFileSync(SHARED, 'utf8'));
});
