'use strict';
// A command pinned to cores with taskset (lib/core/processes.js pinned), or left as it is.
const { pinned } = require('../../lib/core/processes');

test('a command runs under taskset on the given cores, or as is without them', () => {
  expect(pinned('/usr/bin/wrk', ['-t', '1'], '1')).toEqual([
    'taskset',
    ['-c', '1', '/usr/bin/wrk', '-t', '1'],
  ]);
  expect(pinned('/usr/bin/wrk', ['-t', '1'], null)).toEqual(['/usr/bin/wrk', ['-t', '1']]);
});
