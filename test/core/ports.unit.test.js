'use strict';
// Which ports freePort picks from, for each ephemeral range the kernel may have.
const { listenRange } = require('../../lib/core/ports');

test.each([
  ['32768 60999', 32767, "Linux's default: 20000 up to the ephemeral range"],
  ['1024 65535', 65535, 'a range widened as preflight advises leaves no room below: 20000 and up'],
  ['21000 60999', 65535, 'fewer than 2000 ports below the range: 20000 and up'],
  ['40000\t60999', 39999, 'a range that starts higher leaves more room'],
])('%s → up to %d (%s)', (rangeText, high) => {
  expect(listenRange(rangeText)).toEqual({ low: 20000, high });
});
