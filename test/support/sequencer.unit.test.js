'use strict';
const { runOrder } = require('./sequencer');

const finishers = { 'test/lab/z.test.js': ['test/matrix/a.test.js'] };

test('files run by path; a lab’s users run just before the file that takes it down', () => {
  expect(
    runOrder(['test/matrix/a.test.js', 'test/b.test.js', 'test/lab/z.test.js', 'test/a.test.js'], finishers),
  ).toEqual(['test/a.test.js', 'test/b.test.js', 'test/matrix/a.test.js', 'test/lab/z.test.js']);
});

test('a user keeps its place by path when its finisher is not in the run', () => {
  expect(runOrder(['test/matrix/a.test.js', 'test/b.test.js'], finishers)).toEqual([
    'test/b.test.js',
    'test/matrix/a.test.js',
  ]);
});

test('the longest files first, the rest in their order, users of a lab still before its finisher', () => {
  const files = ['test/matrix/a.test.js', 'test/b.test.js', 'test/lab/z.test.js', 'test/long.test.js'];
  expect(runOrder(files, finishers, ['test/long.test.js'])).toEqual([
    'test/long.test.js',
    'test/b.test.js',
    'test/matrix/a.test.js',
    'test/lab/z.test.js',
  ]);
});
