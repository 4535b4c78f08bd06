'use strict';
// The benchmark's parsing of wrk output and its percentile arithmetic (pure logic).
const { parseWrk, binPercentile, parseArgs } = require('../bench/service');

const WRK = `Running 5s test @ http://127.0.0.1:41234/api/records/x
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.20ms  310.00us   9.80ms   90.00%
    Req/Sec    26.70k     1.10k   28.10k    80.00%
  Latency Distribution
     50%    1.14ms
     75%    1.30ms
     90%  850.00us
     99%    1.02s
  132812 requests in 5.00s, 150.00MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 7
Requests/sec:  26562.40
Transfer/sec:     30.00MB
SERVICE_TIMING {"app":{"3":5,"20":1},"redis":{},"missing":0}
`;

test('wrk output: throughput, percentiles in ms whatever the unit, errors and service timing', () => {
  expect(parseWrk(WRK)).toEqual({
    rps: 26562.4,
    requests: 132812,
    p50: 1.14,
    p90: 0.85,
    p99: 1020,
    non2xx: 7,
    socketErrors: 3,
    serviceTiming: { app: { 3: 5, 20: 1 }, redis: {}, missing: 0 },
  });
});

test('percentiles from 10 µs bins take the upper edge of the bin', () => {
  const bins = { 3: 50, 4: 40, 150: 9, 900: 1 };
  expect(binPercentile(bins, 50)).toBeCloseTo(0.04);
  expect(binPercentile(bins, 90)).toBeCloseTo(0.05);
  expect(binPercentile(bins, 99)).toBeCloseTo(1.51);
  expect(binPercentile(bins, 100)).toBeCloseTo(9.01);
  expect(binPercentile({}, 50)).toBeNaN();
});

test('options are checked', () => {
  expect(parseArgs([])).toMatchObject({ duration: 5, rounds: 3, connections: 32 });
  expect(parseArgs(['--quick'])).toMatchObject({ duration: 3, rounds: 1 });
  expect(() => parseArgs(['--rounds', '0'])).toThrow(/--rounds must be a positive integer/);
  expect(() => parseArgs(['--fast'])).toThrow(/unknown option --fast/);
});
