'use strict';
// Every k6 script parses and resolves its options in k6 itself (`k6 inspect`), with the lab
// defaults and with a cluster target; bad input stops it with a message that names the variable.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { requireTool } = require('../../lib/core/tools');
const { ROOT } = require('../../lib/core/paths');

const K6_DIR = path.join(ROOT, 'k6');
const scripts = fs.readdirSync(K6_DIR).filter((f) => f.endsWith('.js'));

function inspect(script, env = {}) {
  const args = ['inspect'];
  for (const [k, v] of Object.entries(env)) args.push('-e', `${k}=${v}`);
  args.push(path.join(K6_DIR, script));
  return JSON.parse(execFileSync(requireTool('k6'), args, { encoding: 'utf8', timeout: 30000 }));
}

describe('k6 scripts', () => {
  test('there are the three scripts', () => {
    expect(scripts.sort()).toEqual(['data-service.js', 'router-matrix.js', 'smoke.js']);
  });

  test.each(scripts)('k6 inspect %s: lab hosts map to 127.0.0.1', (script) => {
    const options = inspect(script);
    expect(options.hosts['data-service-edge-router-lab.apps.lab.localhost']).toBe('127.0.0.1');
    expect(Object.keys(options.hosts)).toHaveLength(4);
  });

  test('router-matrix: a close cell reuses no connection and verifies TLS; passthrough skips verification', () => {
    const close = inspect('router-matrix.js', { TERMINATION: 'edge', CONNECTION: 'close', PAGE_SIZE: '4k' });
    expect(close.noConnectionReuse).toBe(true);
    expect(close.noVUConnectionReuse).toBe(true);
    expect(close.insecureSkipTLSVerify).toBe(false);
    expect(close.tags).toEqual({
      cell: 'edge:4k:close:full',
      termination: 'edge',
      page_size: '4k',
      connection: 'close',
      tls_session: 'full',
      protocol: 'h1',
    });
    expect(Object.keys(close.thresholds)).toEqual(
      expect.arrayContaining([
        // The script's own failure rate: a 3xx or a page of the wrong size fails too.
        'request_failed{cell:edge:4k:close:full}',
        'http_req_duration{cell:edge:4k:close:full,expected_response:true}',
        // Per-request distributions: router + network time, and TLS time per handshake.
        'router_time',
        'tls_handshake',
      ]),
    );
    expect(inspect('router-matrix.js', { TERMINATION: 'passthrough' }).insecureSkipTLSVerify).toBe(true);
    const open = inspect('router-matrix.js', { RATE: '2000', MAX_VUS: '300' });
    expect(open.scenarios.cell).toMatchObject({ executor: 'constant-arrival-rate', rate: 2000, maxVUs: 300 });
    // The default ceiling is the runner's (k6/lib/generator.js): max(VUS, RATE/10).
    expect(inspect('router-matrix.js', { RATE: '200' }).scenarios.cell).toMatchObject({
      preAllocatedVUs: 32,
      maxVUs: 32,
    });
  });

  test('router-matrix: k6 refuses to claim resumed TLS sessions, which it cannot do', () => {
    expect(() =>
      inspect('router-matrix.js', { TERMINATION: 'edge', CONNECTION: 'close', TLS_SESSION: 'resumed' }),
    ).toThrow(/k6 keeps no TLS session cache, so it cannot resume; use wrk/);
    // Cells without a TLS session ignore it: http has no TLS.
    expect(inspect('router-matrix.js', { CONNECTION: 'close', TLS_SESSION: 'resumed' }).tags.cell).toBe(
      'http:1k:close',
    );
  });

  test('router-matrix: INSECURE_SKIP_TLS_VERIFY skips verification on edge too (self-signed cluster router)', () => {
    const env = { URL_EDGE: 'https://edge.example.com', TERMINATION: 'edge' };
    expect(inspect('router-matrix.js', env).insecureSkipTLSVerify).toBe(false);
    expect(
      inspect('router-matrix.js', { ...env, INSECURE_SKIP_TLS_VERIFY: 'true' }).insecureSkipTLSVerify,
    ).toBe(true);
    // The project's one boolean grammar (k6/lib/grammar.js), case-insensitive.
    for (const word of ['1', 'Yes', 'on']) {
      expect(
        inspect('router-matrix.js', { ...env, INSECURE_SKIP_TLS_VERIFY: word }).insecureSkipTLSVerify,
      ).toBe(true);
    }
    expect(
      inspect('router-matrix.js', { ...env, INSECURE_SKIP_TLS_VERIFY: 'off' }).insecureSkipTLSVerify,
    ).toBe(false);
  });

  test('data-service: 5000 TPS open model by default, dropped iterations thresholded', () => {
    const options = inspect('data-service.js');
    expect(options.scenarios.bank).toMatchObject({
      executor: 'constant-arrival-rate',
      rate: 5000,
      timeUnit: '1s',
    });
    expect(options.thresholds.dropped_iterations).toEqual(['count==0']);
    // Thresholds on the workload only, not on the seed POSTs of setup().
    expect(Object.keys(options.thresholds)).toEqual(
      expect.arrayContaining([
        'http_req_failed{scenario:bank}',
        'http_req_duration{scenario:bank,expected_response:true}',
      ]),
    );
    expect(options.thresholds.http_req_failed).toBeUndefined();
  });

  test('a cluster target needs no hosts mapping', () => {
    const options = inspect('smoke.js', { APPS_DOMAIN: 'apps.example.com', NAMESPACE: 'bank' });
    expect(options.hosts).toEqual({});
  });

  test.each([
    [
      'router-matrix.js',
      { TERMINATION: 'tls' },
      /TERMINATION must be one of http, edge, passthrough, reencrypt/,
    ],
    ['router-matrix.js', { PAGE_SIZE: 'big' }, /page size must look like/],
    ['router-matrix.js', { DURATION: 'forever' }, /DURATION must be a duration such as 30s, 1m30s or 500ms/],
    [
      'router-matrix.js',
      { INSECURE_SKIP_TLS_VERIFY: 'maybe' },
      /INSECURE_SKIP_TLS_VERIFY must be true or false/,
    ],
    ['data-service.js', { MIX: 'add=1,delete=2' }, /MIX must look like/],
    ['smoke.js', { URL_EDGE: 'ftp://x' }, /URL_EDGE must be an http\(s\) URL/],
    ['smoke.js', { ROUTES: 'http, tls' }, /ROUTES: 'tls' is not one of http, edge/],
    ['smoke.js', { ROUTES: ' , ' }, /ROUTES must be a comma-separated list/],
    ['smoke.js', { URL_EDGE: 'https://edge.example.com' }, /no URL for the http route: set APPS_DOMAIN/],
    [
      'router-matrix.js',
      { URL_EDGE: 'https://edge.example.com', TERMINATION: 'edge', RATE: 'lots' },
      /RATE must be an integer from 0 to 10000000, got \\?"lots/,
    ],
  ])('%s with %j stops with a clear message', (script, env, message) => {
    const args = ['inspect'];
    for (const [k, v] of Object.entries(env)) args.push('-e', `${k}=${v}`);
    const run = spawnSync(requireTool('k6'), [...args, path.join(K6_DIR, script)], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toMatch(message);
  });
});
