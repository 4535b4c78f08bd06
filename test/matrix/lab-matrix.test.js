'use strict';
// The matrix against a real lab in a temporary LAB_DIR on free ports: the --quick matrix with the
// router's cost, capacity, handshake floor and sizing, then a saturated and an easy open-model
// cell to see the verdicts flip on real measurements.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT } = require('../../lib/core/paths');
const { isAlive } = require('../../lib/core/processes');
const lab = require('../../lib/lab/index');
const { RESULTS_VERSION, SCHEMA } = require('../../lib/results-model/document');

jest.setTimeout(300000);

const labDir = fs.mkdtempSync(path.join(os.tmpdir(), 'matrix-lab-'));
const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'matrix-out-'));
const env = {
  ...process.env,
  LAB_DIR: labDir,
  LAB_HTTP_PORT: '0',
  LAB_HTTPS_PORT: '0',
  LAB_STATS_PORT: '0',
  LAB_SERVICE_BASE_PORT: '0',
  LAB_REDIS_PORT: '0',
};
let state;

/** Runs bin/matrix.js; `onOutput(text, child)` sees the output as it comes. */
function runMatrix(args, onOutput = () => {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'matrix.js'), ...args], { env });
    let output = '';
    const take = (c) => {
      output += c;
      onOutput(output, child);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

const readResults = (dir) => JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'));

beforeAll(async () => {
  state = await lab.up({ env, log: () => {} });
});

afterAll(async () => {
  await lab.down({ env, log: () => {} });
  const pids = [state.router.pid, ...state.instances.map((i) => i.pid), ...(state.redis.pids || [])];
  expect(pids.filter(isAlive)).toEqual([]);
  fs.rmSync(labDir, { recursive: true, force: true });
  fs.rmSync(outRoot, { recursive: true, force: true });
});

// The quick matrix on 1k pages (every termination, connection and TLS session: the 4k pages add
// nothing the cells here do not show), without warm-up and with 2 s samples, for the suite's time
// on two cores.
test('--quick measures every 1k cell it can here without errors and writes the results directory', async () => {
  const out = path.join(outRoot, 'quick');
  const started = Date.now();
  const { code, output } = await runMatrix([
    '--quick',
    '--sizes',
    '1k',
    '--warmup',
    '0',
    '--cooldown',
    '0',
    '--duration',
    '2',
    '--out',
    out,
  ]);
  expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
  expect(Date.now() - started).toBeLessThan(150000); // under a minute on an idle machine; margin for a busy one
  expect(output).toMatch(/\[cell 10\/10\]/);

  const results = readResults(out);
  expect(results.complete).toBe(true);
  expect(results.cells.map((c) => c.name).sort()).toHaveLength(10);
  // wrk sends the URL's host as SNI: in the lab, where route hosts do not resolve, it cannot reach
  // a passthrough route, and the run says so instead of measuring something else.
  expect(results.skippedCells).toEqual([
    { name: 'passthrough:1k:close:resumed', reason: expect.stringMatching(/SNI/) },
  ]);
  for (const cell of results.cells) {
    expect({ cell: cell.name, errorRate: cell.errorRate, errors: cell.errors }).toEqual({
      cell: cell.name,
      errorRate: 0,
      errors: {},
    });
    expect(cell.rps).toBeGreaterThan(20);
    expect(cell.p50).toBeGreaterThan(0);
    expect(cell.p99).toBeGreaterThanOrEqual(cell.p50);
    // k6 reads the service's Server-Timing header; wrk's figures have no service time.
    if (cell.generator.tool === 'k6') expect(cell.serviceTimeMs.p50).toBeGreaterThanOrEqual(0);
    else expect(cell.serviceTimeMs).toBeNull();
    expect(SCHEMA.$defs.limitedBy.properties.by.enum).toContain(cell.limitedBy.by);
    // The router's own cost, whoever ran out of CPU first, and what it implies per core.
    expect(cell.cost.router.perRequestUs.median).toBeGreaterThan(0);
    expect(cell.capacity.perCoreRps).toBeGreaterThan(0);
    expect(cell.generator.cpuCores).toBeGreaterThan(0);
    expect(cell.generator.tool).toBe(cell.tlsSession === 'resumed' ? 'wrk' : 'k6');
    expect(cell.router.cpuCores).toBeGreaterThan(0);
    // The router's own counters, read over its runtime API while each sample ran.
    expect(cell.router.counters.readings).toBeGreaterThan(0);
    expect(cell.router.counters.currentConnections.max).toBeGreaterThan(0);
    // New sessions every second only where each request opens a connection.
    if (cell.connection === 'close') expect(cell.router.counters.sessionsPerSec).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(out, cell.raw[0]))).toBe(true);
    // Every response over HTTP/1.1, as on OpenShift's router by default (no h2 over ALPN), and the
    // group of a full handshake recorded for each close TLS cell.
    const tlsClose = cell.connection === 'close' && cell.termination !== 'http';
    expect({ cell: cell.name, protocols: cell.protocols, group: cell.tlsGroup }).toEqual({
      cell: cell.name,
      protocols: { 'HTTP/1.1': cell.requests },
      group: tlsClose ? 'X25519' : null,
    });
  }
  // A close cell over TLS does a full handshake per request; keep-alive amortises it away.
  const close = results.cells.find((c) => c.name === 'edge:1k:close:full');
  const keep = results.cells.find((c) => c.name === 'edge:1k:keepalive');
  expect(close.decomposition.tlsHandshakeMs.p50).toBeGreaterThan(0);
  expect(keep.decomposition.tlsHandshakeMs.p50).toBe(0);
  // Per handshake: one per request in close, one per VU's connection in keep-alive.
  expect(close.tlsHandshakes).toBeGreaterThan(keep.tlsHandshakes);
  expect(keep.tlsHandshakeMs).toBeGreaterThan(0);
  expect(keep.decomposition.routerMs.p50).toBeGreaterThanOrEqual(0);
  expect(keep.decomposition.routerMs.count).toBeGreaterThan(0);
  expect(keep.okRps).toBe(keep.rps);
  expect(results.environment).toMatchObject({
    cores: os.cpus().length,
    router: { threads: state.router.threads },
  });
  expect(results.environment.k6).toMatch(/^1\./);
  // What shapes TLS cost: the HAProxy the lab ran and its OpenSSL, the group, the ALPN policy.
  expect(results.environment).toMatchObject({
    haproxy: state.router.haproxy.build,
    haproxyOpenssl: state.router.haproxy.openssl,
    alpnPolicy: 'http/1.1',
    openshiftRelease: '4.22',
    negotiatedGroup: 'X25519',
  });
  expect(results.reference.tables).toHaveLength(3);
  // Close cells cost the router more per request than keep-alive ones: the connection (and, over
  // TLS, the full handshake) is paid on every request.
  for (const termination of ['http', 'edge', 'reencrypt']) {
    const cost = (connection) =>
      results.cells.find((c) => c.name.startsWith(`${termination}:1k:${connection}`)).cost.router.perRequestUs
        .median;
    expect({ termination, close: cost('close') > cost('keepalive') }).toEqual({ termination, close: true });
  }
  // The router's counters prove what each close cell measured: k6 did a full handshake per
  // request, wrk resumed the session of the connection before.
  for (const termination of ['edge', 'reencrypt']) {
    for (const size of ['1k']) {
      const full = results.cells.find((c) => c.name === `${termination}:${size}:close:full`);
      const resumed = results.cells.find((c) => c.name === `${termination}:${size}:close:resumed`);
      expect([full.name, full.tlsEvidence.holds, full.router.counters.reusePct < 10]).toEqual([
        full.name,
        true,
        true,
      ]);
      expect([resumed.name, resumed.tlsEvidence.holds, resumed.router.counters.reusePct >= 90]).toEqual([
        resumed.name,
        true,
        true,
      ]);
      expect(full.router.counters.fullHandshakesPerSec).toBeGreaterThan(0);
      // The price of the full handshake: the resumed cell costs the router less per request.
      expect(resumed.cost.router.perRequestUs.median).toBeLessThan(full.cost.router.perRequestUs.median);
      expect(resumed.cost.wrk.perRequestUs.median).toBeGreaterThan(0);
    }
  }
  expect(results.handshakePrices.map((p) => p.fullCell)).toEqual([
    'edge:1k:close:full',
    'reencrypt:1k:close:full',
  ]);
  for (const price of results.handshakePrices) expect(price.priceUs).toBeGreaterThan(0);
  // The floor, measured in the same run with the key and group of a real handshake: no router
  // does a full handshake in less CPU than one signature and one key exchange.
  expect(results.handshakeFloor).toMatchObject({ key: 'rsa2048', group: 'X25519', protocol: 'TLSv1.3' });
  expect(results.handshakeFloor.floorUs).toBeGreaterThan(0);
  expect(close.floorMultiple).toMatchObject({ role: 'router' });
  expect(close.floorMultiple.median).toBeGreaterThanOrEqual(1);
  // The bank's question, answered for its 5000 TPS.
  expect(results.sizing.tps).toBe(5000);
  expect(
    results.sizing.cells.find((c) => c.name === 'edge:1k:close:full').routerCores,
  ).toBeGreaterThanOrEqual(1);
  const md = fs.readFileSync(path.join(out, 'report.md'), 'utf8');
  expect(md).toContain('| passthrough:1k:close:full |');
  // Red Hat's 4.x close figures are compared with the resumed cells, their condition.
  expect(md).toMatch(
    /### 1k pages, close, resumed TLS sessions \(wrk\)\n\n(- .*\n)*- OCP 4\.x: .*resumption was used/,
  );
  expect(md).toContain('### The price of a full handshake');
  expect(fs.readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('<svg');
});

test('the generator verdict: a rate k6 cannot reach is flagged, an easy one is not', async () => {
  const hard = path.join(outRoot, 'hard');
  const easy = path.join(outRoot, 'easy');
  // 5 VUs cannot start 50000 requests/s: iterations are dropped and every VU is busy. 50 req/s
  // with the default 32 VUs (= max VUs, all active from the start) is easy.
  const common = [
    '--cells',
    'http:1k:keepalive',
    '--duration',
    '3',
    '--warmup',
    '0',
    '--samples',
    '1',
    '--no-report',
  ];
  expect(
    (await runMatrix([...common, '--rate', '50000', '--vus', '5', '--max-vus', '5', '--out', hard])).code,
  ).toBe(0);
  expect((await runMatrix([...common, '--rate', '50', '--out', easy])).code).toBe(0);
  const [hardCell] = readResults(hard).cells;
  const [easyCell] = readResults(easy).cells;
  const generatorReasons = (cell) => cell.limitedBy.reasons.filter((r) => r.role === 'generator');
  expect(hardCell.limitedBy.by).toMatch(/^generator/);
  expect(hardCell.generator.droppedIterations).toBeGreaterThan(0);
  expect(
    generatorReasons(hardCell)
      .map((r) => r.text)
      .join(' '),
  ).toMatch(/iterations dropped/);
  expect(easyCell.generator.droppedIterations).toBe(0);
  expect(generatorReasons(easyCell)).toEqual([]);
  expect(easyCell.generator).toMatchObject({ maxVus: 32 });
  expect(easyCell.rps).toBeGreaterThan(40);
  // An idle router is not the limit: nothing was, and the offered 50 req/s set the figure.
  expect(easyCell.limitedBy.by).toBe('load');
  expect(easyCell.limitedBy.reasons[0].text).toMatch(/offered load \(50 req\/s\)/);

  // A second run into the same directory is refused instead of overwriting the first.
  const again = await runMatrix([...common, '--out', easy]);
  expect(again.code).toBe(1);
  expect(again.output).toMatch(/already holds the results of a run/);
  expect(readResults(easy).cells[0].rps).toBe(easyCell.rps);
});

test('an interrupted run writes what finished, decided and marked incomplete, and reports it', async () => {
  const out = path.join(outRoot, 'interrupted');
  const args = ['--cells', 'http:1k:keepalive,edge:1k:keepalive', '--duration', '2', '--warmup', '0'];
  args.push('--samples', '1', '--cooldown', '60', '--out', out);
  // Ctrl-C during the cool-down after the first cell.
  let sent = false;
  const { code, output } = await runMatrix(args, (text, child) => {
    if (!sent && /cool-down/.test(text)) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  expect({ code, output: code === 130 ? '' : output }).toEqual({ code: 130, output: '' });
  const results = readResults(out);
  expect(results).toMatchObject({
    version: RESULTS_VERSION,
    complete: false,
    finishedAt: expect.any(String),
  });
  expect(results.cells.map((c) => c.name)).toEqual(['http:1k:keepalive']);
  expect(results.cells[0].limitedBy.by).toEqual(expect.any(String));
  expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/This run was interrupted/);
  expect(output).toMatch(/Report: .*report\.html/);
});
