'use strict';
const { childrenCpuMs } = require('../../lib/route-scale/reloads');

test("haproxy -c's CPU is the children's line of bash's times: user + system, in ms", () => {
  expect(childrenCpuMs('0m0.003s 0m0.001s\n0m0.041s 0m0.012s\n')).toBe(53);
  expect(childrenCpuMs('0m0.000s 0m0.000s\n1m2.500s 0m0.250s\n')).toBe(62750);
});

test('output without the two lines of times is an error that shows it', () => {
  expect(() => childrenCpuMs('haproxy: configuration file is valid\n')).toThrow(
    /bash's times printed no children's line: haproxy: configuration/,
  );
});
