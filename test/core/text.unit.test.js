'use strict';
const { wrap, wrapLines, table } = require('../../lib/core/text');

describe('wrapLines', () => {
  test('fills each line up to the width and no further', () => {
    expect(wrapLines('aa bb cc dd', 5)).toEqual(['aa bb', 'cc dd']);
    expect(wrapLines('aa bb cc dd', 4)).toEqual(['aa', 'bb', 'cc', 'dd']);
  });

  test('a word longer than the width stands alone on its line', () => {
    expect(wrapLines('a abcdefgh b', 4)).toEqual(['a', 'abcdefgh', 'b']);
  });

  test('runs of white space count as one, and empty text is one empty line', () => {
    expect(wrapLines('  a \n  b  ', 10)).toEqual(['a b']);
    expect(wrapLines('', 10)).toEqual(['']);
  });

  test('the prefixes count towards the width', () => {
    expect(wrapLines('one two three', 11, { first: 'x:', indent: '   ' })).toEqual([
      'x: one two',
      '   three',
    ]);
  });
});

describe('wrap', () => {
  test('joins the lines, continuation lines indented by four spaces unless told', () => {
    expect(wrap('alpha beta gamma', { width: 13, first: '  note:' })).toBe(
      '  note: alpha\n    beta\n    gamma',
    );
    expect(wrap('alpha beta gamma', { width: 11, indent: '' })).toBe('alpha beta\ngamma');
  });

  test('a short message stays on one line, after its prefix', () => {
    expect(wrap('all fine', { first: '  warning:' })).toBe('  warning: all fine');
  });
});

describe('table', () => {
  const rows = {
    head: ['NAME', 'N'],
    rows: [
      ['a', 1],
      ['longer', 22],
    ],
  };

  test('aligns every column to its widest cell, with a rule under the head', () => {
    expect(table(rows)).toBe(['NAME    N', '------  --', 'a       1', 'longer  22'].join('\n'));
  });

  test('without the rule and with an indent; no line ends in spaces', () => {
    const text = table({ head: ['X', 'LAST'], rows: [['long', '']] }, { indent: '  ', rule: false });
    expect(text).toBe(['  X     LAST', '  long'].join('\n'));
  });
});
