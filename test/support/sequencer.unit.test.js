'use strict';
const { runOrder, usersInRun } = require('./sequencer');

const finishers = { 'test/lab/z.test.js': ['test/matrix/a.test.js'] };

test('files run by path, a file that takes a lab down last; its users keep their places', () => {
  expect(
    runOrder(['test/matrix/a.test.js', 'test/b.test.js', 'test/lab/z.test.js', 'test/a.test.js'], finishers),
  ).toEqual(['test/a.test.js', 'test/b.test.js', 'test/matrix/a.test.js', 'test/lab/z.test.js']);
  expect(runOrder(['test/lab/z.test.js', 'test/matrix/a.test.js', 'test/zz.test.js'], finishers)).toEqual([
    'test/matrix/a.test.js',
    'test/zz.test.js',
    'test/lab/z.test.js',
  ]);
});

test('a finisher waits only for its users in the run; a run without the finisher waits for none', () => {
  const files = ['test/lab/z.test.js', 'test/b.test.js'];
  expect(usersInRun(files, { 'test/lab/z.test.js': ['test/matrix/a.test.js', 'test/b.test.js'] })).toEqual({
    'test/lab/z.test.js': ['test/b.test.js'],
  });
  expect(usersInRun(['test/matrix/a.test.js'], finishers)).toEqual({});
});

test('the longest files first, the rest in their order, a finisher last', () => {
  const files = ['test/matrix/a.test.js', 'test/b.test.js', 'test/lab/z.test.js', 'test/long.test.js'];
  expect(runOrder(files, finishers, ['test/long.test.js'])).toEqual([
    'test/long.test.js',
    'test/b.test.js',
    'test/matrix/a.test.js',
    'test/lab/z.test.js',
  ]);
});
