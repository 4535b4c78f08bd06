'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseMatrixArgs, UsageError } = require('../../lib/matrix/options');
const { planCells, estimateSeconds } = require('../../lib/matrix/plan');
const { parseWrkOutput } = require('../../lib/load/wrk-output');
const {
  compareTools,
  crossCheckPlan,
  closeSkip,
  crossCheckSkip,
  protocolSkip,
} = require('../../lib/matrix/cross-check');
const { resolveTarget, describeTls } = require('../../lib/matrix/target');
const { k6Args } = require('../../lib/load/k6');
const cells = require('../../k6/lib/cells');

describe('matrix options and plan', () => {
  test('the default matrix is 22 cells: close cells through a TLS route once per TLS session kind', () => {
    const opts = parseMatrixArgs([]);
    const planned = planCells(opts);
    expect(planned).toHaveLength(22);
    expect(planned.filter((c) => c.tlsSession === 'resumed').map((c) => c.name)).toEqual([
      'edge:1k:close:resumed',
      'edge:4k:close:resumed',
      'passthrough:1k:close:resumed',
      'passthrough:4k:close:resumed',
      'reencrypt:1k:close:resumed',
      'reencrypt:4k:close:resumed',
    ]);
    expect(opts.samples).toBe(3);
    const quick = parseMatrixArgs(['--quick']);
    expect(estimateSeconds(22, quick)).toBeLessThanOrEqual(150);
    // One kind only: --tls-session full is the matrix before resumption was an axis.
    expect(planCells(parseMatrixArgs(['--tls-session', 'full']))).toHaveLength(16);
    expect(planCells(parseMatrixArgs(['--tls-session', 'resumed'])).map((c) => c.name)).toContain(
      'edge:1k:close:resumed',
    );
  });

  test('--cells picks a TLS session kind by its fourth part, or takes --tls-session’s kinds without one', () => {
    const names = (argv) => planCells(parseMatrixArgs(argv)).map((c) => c.name);
    expect(names(['--cells', 'edge:1k:close'])).toEqual(['edge:1k:close:full', 'edge:1k:close:resumed']);
    expect(names(['--cells', 'edge:1k:close', '--tls-session', 'full'])).toEqual(['edge:1k:close:full']);
    // Named explicitly, a kind joins the run even where --tls-session leaves it out.
    expect(names(['--cells', '*:1k:close:resumed', '--tls-session', 'full'])).toEqual([
      'http:1k:close',
      'edge:1k:close:resumed',
      'passthrough:1k:close:resumed',
      'reencrypt:1k:close:resumed',
    ]);
  });

  test('--cells with wildcards, and sizes named there join the run', () => {
    const opts = parseMatrixArgs(['--cells', 'edge:1k:keepalive,http:*:close,passthrough:64k:*']);
    expect(planCells(opts).map((c) => c.name)).toEqual([
      'http:1k:close',
      'http:4k:close',
      'edge:1k:keepalive',
      'passthrough:64k:keepalive',
      'passthrough:64k:close:full',
      'passthrough:64k:close:resumed',
    ]);
  });

  test('--sizes adds page sizes', () => {
    expect(planCells(parseMatrixArgs(['--sizes', '1k,4k,16k']))).toHaveLength(33);
  });

  test.each([
    [['--cells', 'edge:1k'], /termination:size:connection/],
    [['--cells', 'edge:1k:close:cached'], /session must be \* or one of full, resumed/],
    [['--tls-session', 'cached'], /--tls-session.*'cached' is not one of full, resumed/],
    [['--cells', 'tls:1k:close'], /termination must be/],
    [['--cells', 'edge:huge:close'], /page size/],
    [['--sizes', '2m'], /between 1 byte and 1 MiB/],
    [['--duration', '0'], /--duration must be a positive integer, got "0"/],
    [['--vus'], /--vus needs a value/],
    [['--target', 'staging'], /--target must be one of lab, cluster, got "staging"/],
    [['--frobnicate'], /unknown option --frobnicate/],
    [['--insecure'], /--insecure is for --target cluster only: the lab has its own routes and verifies/],
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

  test('the open model is not cross-checked: k6 is held to --rate, the second tool runs flat out', () => {
    expect(crossCheckSkip(parseMatrixArgs(['--cross-check']))).toBeNull();
    expect(crossCheckSkip(parseMatrixArgs(['--cross-check', '--rate', '200']))).toMatch(
      /open model \(--rate 200\): k6 is held to the rate/,
    );
  });

  test('a cell whose responses were not all of its own HTTP version is not cross-checked', () => {
    const h1 = { protocol: 'h1' };
    const h2 = { protocol: 'h2' };
    expect(protocolSkip(h1, { 'HTTP/1.1': 5000 })).toBeNull();
    expect(protocolSkip(h2, { 'HTTP/2.0': 5000 })).toBeNull();
    expect(protocolSkip({ protocol: null }, { 'HTTP/1.1': 5000 })).toBeNull();
    expect(protocolSkip(h1, { 'HTTP/2.0': 5000 })).toMatch(
      /k6 read HTTP\/2\.0 in this cell, not only the HTTP\/1\.1 its cross-check forces/,
    );
    expect(protocolSkip(h2, { 'HTTP/1.1': 10, 'HTTP/2.0': 5000 })).toMatch(/k6 read HTTP\/1\.1/);
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
      parseMatrixArgs(['--target', 'cluster', '--apps-domain', 'apps.example.com'], {
        URL_EDGE: 'https://bank.example.com',
      }),
    );
    expect(target.routes.http.url).toBe('http://data-service-http-router-lab.apps.example.com');
    expect(target.routes.edge).toEqual({ url: 'https://bank.example.com', host: 'bank.example.com' });
  });

  test('a cluster target is resolved by the k6 scripts’ own targets.js, with its URL check', () => {
    const cluster = (env) => parseMatrixArgs(['--target', 'cluster'], env);
    expect(() => resolveTarget(cluster({ URL_EDGE: 'ftp://bank.example.com' }))).toThrow(
      /URL_EDGE must be an http\(s\) URL/,
    );
    const { target } = resolveTarget(cluster({ APPS_DOMAIN: 'apps.example.com', NAMESPACE: 'bank' }));
    // The environment names the namespace as the k6 scripts read it; the host follows cells.routeHost.
    expect(target.routes.reencrypt.host).toBe(cells.routeHost('reencrypt', 'bank', 'apps.example.com'));
    // The command line wins over the environment.
    const flag = parseMatrixArgs(['--target', 'cluster', '--namespace', 'ops'], { NAMESPACE: 'bank' });
    expect(flag.namespace).toBe('ops');
  });

  test('options that mean nothing against the lab are refused there, by name', () => {
    expect(() => parseMatrixArgs(['--apps-domain', 'apps.example.com'])).toThrow(
      /--apps-domain is for --target cluster only/,
    );
    expect(() => parseMatrixArgs(['--namespace', 'bank'])).toThrow(
      /--namespace is for --target cluster only/,
    );
    // A NAMESPACE in the shell's environment is no reason to refuse a lab run.
    expect(parseMatrixArgs([], { NAMESPACE: 'bank', APPS_DOMAIN: 'x.example' }).target).toBe('lab');
  });

  test('--insecure (cluster): k6 skips verification everywhere, and results.json says so', () => {
    const opts = parseMatrixArgs(['--target', 'cluster', '--apps-domain', 'apps.example.com', '--insecure']);
    const { target } = resolveTarget(opts);
    expect(target.insecure).toBe(true);
    expect(describeTls(target)).toMatchObject({
      insecure: true,
      verified: [],
      skipped: ['edge', 'passthrough', 'reencrypt'],
    });
    const cell = { name: 'edge:1k:keepalive', termination: 'edge', pageSize: 1024, connection: 'keepalive' };
    expect(k6Args(cell, opts, target, { durationSeconds: 3 })).toContain('INSECURE_SKIP_TLS_VERIFY=true');
    const verified = resolveTarget(
      parseMatrixArgs(['--target', 'cluster', '--apps-domain', 'x.example'], {}),
    );
    expect(describeTls(verified.target)).toMatchObject({ insecure: false, verified: ['edge', 'reencrypt'] });
    expect(k6Args(cell, opts, verified.target, { durationSeconds: 3 }).join(' ')).not.toMatch(/INSECURE/);
  });
});

describe('one route vocabulary', () => {
  test('the lab, the cluster scripts and the k6 targets use k6/lib/cells.js', () => {
    const routes = require('../../lib/lab/common/routes');
    const names = require('../../lib/cluster/names');
    expect(routes.TERMINATIONS).toBe(cells.TERMINATIONS);
    expect(routes.APPS_DOMAIN).toBe(cells.LAB_APPS_DOMAIN);
    expect(routes.NAMESPACE).toBe(cells.DEFAULT_NAMESPACE);
    expect(names.TERMINATIONS).toBe(cells.TERMINATIONS);
    expect(names.DEFAULT_NAMESPACE).toBe(cells.DEFAULT_NAMESPACE);
    expect(names.routeName).toBe(cells.routeName);
    const lab = routes.labRoutes({ httpPort: 1, httpsPort: 2 });
    const { resolveTargets } = require('../../k6/lib/targets');
    const k6 = resolveTargets({});
    for (const route of lab) expect(k6.routes[route.termination].host).toBe(route.host);
  });
});

test('--help says which resumed cells are skipped, why, and who runs passthrough’s in the lab', () => {
  const { COMMAND } = require('../../lib/matrix/options');
  const help = COMMAND.help().replace(/\s+/g, ' ');
  expect(help).toContain('resumed close cells are skipped: they need wrk, which has no open model');
  expect(help).toContain(
    "skipped under --rate; haload for passthrough in the lab, where wrk, which sends the URL's host as SNI, cannot reach it",
  );
});

describe('--prometheus', () => {
  test('a sample shorter than 4 scrape intervals is refused, naming both durations', () => {
    const args = ['--target', 'cluster', '--prometheus', 'http://127.0.0.1:9090'];
    expect(() => parseMatrixArgs([...args, '--duration', '60'])).toThrow(
      '--duration 60s is shorter than 4 scrape intervals (--scrape-interval 30s): give a --duration of 120 s or more',
    );
    expect(parseMatrixArgs([...args, '--duration', '4', '--scrape-interval', '1']).prometheus).toBe(
      'http://127.0.0.1:9090',
    );
  });

  test('is for --target cluster only', () => {
    expect(() => parseMatrixArgs(['--prometheus', 'http://127.0.0.1:9090'])).toThrow(
      /--prometheus is for --target cluster only/,
    );
  });
});

describe('which tool cross-checks a cell, and how it reaches the route', () => {
  // The lab's routes: hosts known only to k6, so wrk and haload go to 127.0.0.1 with a Host header.
  const host = (t) => `data-service-${t}-router-lab.invalid`;
  const route = (t, scheme, port) => ({ host: host(t), url: `${scheme}://${host(t)}:${port}` });
  const target = {
    mode: 'lab',
    routes: {
      http: route('http', 'http', 9080),
      edge: route('edge', 'https', 9443),
      passthrough: route('passthrough', 'https', 9443),
    },
  };
  const plan = (name, tools = { haload: '/bin/haload' }) => {
    const cell = cells.parseCellName(name);
    return crossCheckPlan(cell, target.routes[cell.termination], target, tools);
  };

  test('keep-alive: wrk where it can go, haload on passthrough with the route host as SNI', async () => {
    expect(await plan('edge:1k:keepalive')).toEqual({
      tool: 'wrk',
      url: 'https://127.0.0.1:9443/api/pages/1k',
      host: host('edge'),
    });
    expect(await plan('passthrough:1k:keepalive')).toMatchObject({
      tool: 'haload',
      url: 'https://127.0.0.1:9443/api/pages/1k',
      host: host('passthrough'),
      sni: host('passthrough'),
      perConnection: undefined,
    });
  });

  test('close: haload, a request per connection, sessions as the cell has them', async () => {
    expect(await plan('http:1k:close')).toMatchObject({ tool: 'haload', sni: undefined, perConnection: 1 });
    expect(await plan('edge:1k:close:full')).toMatchObject({
      perConnection: 1,
      resume: false,
      sni: host('edge'),
    });
    expect(await plan('edge:1k:close:resumed')).toMatchObject({ perConnection: 1, resume: true });
    expect(await plan('edge:1k:keepalive:h2')).toMatchObject({
      tool: 'haload',
      protocol: 'h2',
      sni: host('edge'),
    });
  });

  test("a close cell's cross-check counts only with a connection per request (haload reuses them over h2)", () => {
    const close = { perConnection: 1, protocol: 'h2' };
    expect(closeSkip(close, { requests: 70341, connections: 70341 })).toBeNull();
    // Measured: haload -h2 -r 1 kept its 32 connections.
    expect(closeSkip(close, { requests: 70341, connections: 32 })).toBe(
      "haload opened 32 connections for 70341 requests, not one per request (over h2 it reuses them): not a close cell's figures",
    );
    expect(closeSkip({ perConnection: undefined }, { requests: 70341, connections: 32 })).toBeNull();
  });

  test('without haload, the cells only it can check are skipped, saying how to get it', async () => {
    expect((await plan('passthrough:1k:keepalive', {})).skip).toMatch(
      /cannot reach a passthrough route, and haload is not installed \(npm run setup -- --for test builds it\)/,
    );
    expect(await plan('edge:1k:close:full', {})).toEqual({
      tool: 'haload',
      skip: 'close and h2 cells are cross-checked by haload, and haload is not installed (npm run setup -- --for test builds it)',
    });
  });
});
