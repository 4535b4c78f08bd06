'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseMatrixArgs, UsageError } = require('../../scripts/matrix/options');
const { planCells, estimateSeconds } = require('../../scripts/matrix/plan');
const { parseWrkOutput, compareTools } = require('../../scripts/matrix/wrk');
const { resolveTarget } = require('../../scripts/matrix/run');

describe('matrix options and plan', () => {
  test('the default matrix is 16 cells; --quick fits in about two minutes', () => {
    const opts = parseMatrixArgs([]);
    expect(planCells(opts)).toHaveLength(16);
    expect(opts.samples).toBe(3);
    const quick = parseMatrixArgs(['--quick']);
    expect(estimateSeconds(16, quick)).toBeLessThanOrEqual(120);
  });

  test('--cells with wildcards, and sizes named there join the run', () => {
    const opts = parseMatrixArgs(['--cells', 'edge:1k:keepalive,http:*:close,passthrough:64k:*']);
    expect(planCells(opts).map((c) => c.name)).toEqual([
      'http:1k:close',
      'http:4k:close',
      'edge:1k:keepalive',
      'passthrough:64k:keepalive',
      'passthrough:64k:close',
    ]);
  });

  test('--sizes adds page sizes', () => {
    expect(planCells(parseMatrixArgs(['--sizes', '1k,4k,16k']))).toHaveLength(24);
  });

  test.each([
    [['--cells', 'edge:1k'], /termination:size:connection/],
    [['--cells', 'tls:1k:close'], /termination must be/],
    [['--cells', 'edge:huge:close'], /page size/],
    [['--sizes', '2m'], /between 1 byte and 1 MiB/],
    [['--duration', '0'], /--duration needs a whole number ≥ 1/],
    [['--vus'], /--vus needs a value/],
    [['--target', 'staging'], /--target must be lab or cluster/],
    [['--frobnicate'], /unknown option '--frobnicate'/],
  ])('%j is refused with a message that names the problem', (argv, message) => {
    expect(() => planCells(parseMatrixArgs(argv))).toThrow(UsageError);
    expect(() => planCells(parseMatrixArgs(argv))).toThrow(message);
  });
});

describe('wrk output', () => {
  const output = `Running 3s test @ https://127.0.0.1:9443/api/pages/1k
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.77ms    3.13ms  28.41ms   91.38%
  Latency Distribution
     50%  609.00us
     75%    1.73ms
     90%    4.40ms
     99%   17.87ms
  2289 requests in 1.00s, 2.87MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 5
Requests/sec:   2278.02
Transfer/sec:      2.86MB
`;
  test('is parsed into rate, percentiles in ms and errors', () => {
    expect(parseWrkOutput(output)).toEqual({
      rps: 2278.02,
      requests: 2289,
      p50: 0.609,
      p75: 1.73,
      p90: 4.4,
      p99: 17.87,
      errors: 3,
      non2xx: 5,
    });
    expect(() => parseWrkOutput('unable to connect')).toThrow(/no Requests\/sec/);
  });

  test('a gap over 10 % is flagged', () => {
    expect(compareTools(10000, 20000)).toEqual({ gap: 0.5, flagged: true });
    expect(compareTools(9500, 10000)).toEqual({ gap: 0.05, flagged: false });
  });
});

describe('target', () => {
  test('without a running lab the matrix says how to start one', () => {
    const env = { LAB_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'no-lab-')) };
    expect(() => resolveTarget(parseMatrixArgs([]), env)).toThrow(/no lab is running in .*npm run lab:up/);
    fs.rmSync(env.LAB_DIR, { recursive: true });
  });

  test('a cluster is named by its apps domain or by explicit URLs', () => {
    const { target } = resolveTarget(
      parseMatrixArgs(['--target', 'cluster', '--apps-domain', 'apps.example.com']),
      {
        URL_EDGE: 'https://bank.example.com',
      },
    );
    expect(target.routes.http.url).toBe('http://data-service-http-router-lab.apps.example.com');
    expect(target.routes.edge).toEqual({ url: 'https://bank.example.com', host: 'bank.example.com' });
  });
});
