'use strict';
const { slowestFilesReport } = require('./slowest-files');

const result = (file, start, end) => ({ testFilePath: `/repo/${file}`, perfStats: { start, end } });

test('lists the slowest files first, relative to the root, with the total of all', () => {
  const lines = slowestFilesReport(
    [result('test/a.test.js', 0, 1500), result('test/b.test.js', 0, 123400), result('test/c.test.js', 0, 20)],
    { root: '/repo', count: 2 },
  );
  expect(lines).toEqual([
    'The 2 slowest of 3 test files:',
    '  123.4 s  test/b.test.js',
    '    1.5 s  test/a.test.js',
    'All 3 files: 124.9 s',
  ]);
});

test('a file without timings (it failed to load) is left out; no files, no report', () => {
  const lines = slowestFilesReport(
    [result('test/a.test.js', 0, 2000), result('test/x.test.js', 0, undefined)],
    {
      root: '/repo',
    },
  );
  expect(lines).toEqual(['The 1 slowest of 1 test files:', '  2.0 s  test/a.test.js', 'All 1 files: 2.0 s']);
  expect(slowestFilesReport([], { root: '/repo' })).toEqual([]);
});
