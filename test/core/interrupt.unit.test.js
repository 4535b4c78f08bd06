'use strict';
const { failureExitCode } = require('../../lib/core/interrupt');

describe('failureExitCode', () => {
  const said = [];
  beforeEach(() => {
    said.length = 0;
    jest.spyOn(console, 'error').mockImplementation((line) => said.push(line));
  });
  afterEach(() => jest.restoreAllMocks());

  test('a failure is said with its message and exits 1, or its own exit code (a usage error: 2)', () => {
    expect(failureExitCode('lab', new Error('no haproxy'))).toBe(1);
    expect(failureExitCode('lab', Object.assign(new Error('bad --vus'), { exitCode: 2 }))).toBe(2);
    expect(said).toEqual(['lab: no haproxy', 'lab: bad --vus']);
  });

  test('an abort, or any failure once the signal is aborted, is "interrupted" and exits 130', () => {
    const abort = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    expect(failureExitCode('matrix', abort)).toBe(130);
    expect(failureExitCode('reliability', new Error('k6 died'), AbortSignal.abort())).toBe(130);
    expect(said).toEqual(['matrix: interrupted', 'reliability: interrupted']);
  });
});
