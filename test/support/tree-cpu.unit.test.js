'use strict';
const { over } = require('./tree-cpu');

const at = (ms) => new Date(ms).toISOString();
// One core busy from 1,000 ms to 3,000 ms, idle around it; read every 500 ms.
const readings = [0, 500, 1000, 1500, 2000, 2500, 3000, 3500].map((t) => [
  t,
  Math.min(Math.max(t - 1000, 0), 2000) / 1000,
]);

test('CPU over windows is read between the readings around their ends, and summed', () => {
  expect(over(readings, [{ start: at(1250), end: at(2750) }])).toEqual({ cpuSeconds: 1.5, seconds: 1.5 });
  const two = over(readings, [
    { start: at(500), end: at(1500) },
    { start: at(2500), end: at(3500) },
  ]);
  expect(two).toEqual({ cpuSeconds: 1, seconds: 2 });
});

test('a window outside the readings is refused, naming its moment', () => {
  expect(() => over(readings, [{ start: at(-500), end: at(1000) }])).toThrow(/1969-12-31T23:59:59.500Z/);
  expect(() => over(readings, [{ start: at(500), end: at(4000) }])).toThrow(/1970-01-01T00:00:04.000Z/);
});
