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
const { THRESHOLDS } = require('../../lib/results-model/verdicts');

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
// on two cores. One run; each test reads what it wrote.
describe('--quick on 1k pages', () => {
  const out = path.join(outRoot, 'quick');
  let run;
  let results;
  const cell = (name) => results.cells.find((c) => c.name === name);
  /**
   * Whether the run says of any of `cells` that other work on the host made its figures noisier:
   * one 2-s sample of each, re-encrypt's resumed cell costing the router only about a quarter
   * less than its full one (measured here), can then come out dearer (CI, three Jest workers).
   */
  const noisy = (...cells) =>
    cells.some((c) => c.limitedBy.hostBusy && c.limitedBy.reasons.some((r) => /noisier/.test(r.text)));
  beforeAll(async () => {
    const started = Date.now();
    const args = ['--quick', '--sizes', '1k', '--warmup', '0', '--cooldown', '0', '--duration', '2'];
    run = { ...(await runMatrix([...args, '--out', out])), seconds: (Date.now() - started) / 1000 };
    // A failed run fails every test below with its own output, not with what it left unread.
    if (run.code !== 0) throw new Error(`npm run matrix exited ${run.code}:\n${run.output}`);
    results = readResults(out);
  });

  test('measures every 1k cell it can here, without errors, and writes the results directory', () => {
    expect({ code: run.code, output: run.code === 0 ? '' : run.output }).toEqual({ code: 0, output: '' });
    expect(run.seconds).toBeLessThan(150); // under a minute on an idle machine; margin for a busy one
    expect(run.output).toMatch(/\[cell 11\/11\]/);
    expect(results.complete).toBe(true);
    expect(results.cells).toHaveLength(11);
    expect(results.skippedCells).toEqual([]);
    for (const c of results.cells) {
      expect({ cell: c.name, errorRate: c.errorRate, errors: c.errors }).toEqual({
        cell: c.name,
        errorRate: 0,
        errors: {},
      });
      expect(c.rps).toBeGreaterThan(20);
      // haload prints mean times only: its cells have no percentiles, and say so.
      if (c.generator.tool === 'haload') {
        expect({ p50: c.p50, p99: c.p99, basis: c.latencyBasis }).toEqual({
          p50: null,
          p99: null,
          basis: expect.stringMatching(/mean times only/),
        });
      } else {
        expect(c.p50).toBeGreaterThan(0);
        expect(c.p99).toBeGreaterThanOrEqual(c.p50);
      }
      // k6 reads the service's Server-Timing header; wrk's figures have no service time.
      if (c.generator.tool === 'k6') expect(c.serviceTimeMs.p50).toBeGreaterThanOrEqual(0);
      else expect(c.serviceTimeMs).toBeNull();
      expect(SCHEMA.$defs.limitedBy.properties.by.enum).toContain(c.limitedBy.by);
      expect(fs.existsSync(path.join(out, c.raw[0]))).toBe(true);
    }
  });

  test("every cell has the router's own cost and counters, whoever ran out of CPU first", () => {
    for (const c of results.cells) {
      expect(c.cost.router.perRequestUs.median).toBeGreaterThan(0);
      expect(c.capacity.perCoreRps).toBeGreaterThan(0);
      expect(c.generator.cpuCores).toBeGreaterThan(0);
      // k6 never resumes a session; wrk sends no SNI of its own, so haload runs passthrough's resumed cell.
      const resumedBy = c.termination === 'passthrough' ? 'haload' : 'wrk';
      expect(c.generator.tool).toBe(c.tlsSession === 'resumed' ? resumedBy : 'k6');
      expect(c.router.cpuCores).toBeGreaterThan(0);
      // The router's own counters, read over its runtime API while each sample ran.
      expect(c.router.counters.readings).toBeGreaterThan(0);
      expect(c.router.counters.currentConnections.max).toBeGreaterThan(0);
      // New sessions every second only where each request opens a connection.
      if (c.connection === 'close') expect(c.router.counters.sessionsPerSec).toBeGreaterThan(0);
      // Every response over HTTP/1.1, as on OpenShift's router by default (no h2 over ALPN), and
      // the group of a full handshake recorded for each close TLS cell.
      const tlsClose = c.connection === 'close' && c.termination !== 'http';
      expect({ cell: c.name, protocols: c.protocols, group: c.tlsGroup }).toEqual({
        cell: c.name,
        protocols: { 'HTTP/1.1': c.requests },
        group: tlsClose ? 'X25519' : null,
      });
    }
  });

  test('a close cell over TLS does a full handshake per request; keep-alive amortises it away', () => {
    const close = cell('edge:1k:close:full');
    const keep = cell('edge:1k:keepalive');
    expect(close.decomposition.tlsHandshakeMs.p50).toBeGreaterThan(0);
    expect(keep.decomposition.tlsHandshakeMs.p50).toBe(0);
    // Per handshake: one per request in close, one per VU's connection in keep-alive.
    expect(close.tlsHandshakes).toBeGreaterThan(keep.tlsHandshakes);
    expect(keep.tlsHandshakeMs).toBeGreaterThan(0);
    expect(keep.decomposition.routerMs.p50).toBeGreaterThanOrEqual(0);
    expect(keep.decomposition.routerMs.count).toBeGreaterThan(0);
    expect(keep.okRps).toBe(keep.rps);
    // The connection (and, over TLS, the full handshake) is paid on every request.
    for (const termination of ['http', 'edge', 'reencrypt']) {
      const cost = (connection) =>
        results.cells.find((c) => c.name.startsWith(`${termination}:1k:${connection}`)).cost.router
          .perRequestUs.median;
      expect({ termination, close: cost('close') > cost('keepalive') }).toEqual({ termination, close: true });
    }
  });

  test('the environment records what shapes TLS cost', () => {
    expect(results.environment).toMatchObject({
      cores: os.cpus().length,
      router: { threads: state.router.threads },
      haproxy: state.router.haproxy.build,
      haproxyOpenssl: state.router.haproxy.openssl,
      alpnPolicy: 'http/1.1',
      openshiftRelease: '4.22',
      negotiatedGroup: 'X25519',
    });
    expect(results.environment.k6).toMatch(/^1\./);
    expect(results.reference.tables).toHaveLength(3);
  });

  test("the router's counters prove what each close cell measured, and the handshake's price", () => {
    // k6 did a full handshake per request; wrk resumed the session of the connection before.
    for (const termination of ['edge', 'reencrypt']) {
      const full = cell(`${termination}:1k:close:full`);
      const resumed = cell(`${termination}:1k:close:resumed`);
      const reuse = (c) => [c.name, c.tlsEvidence.holds, c.router.counters.reusePct];
      expect(reuse(full)).toEqual([full.name, true, expect.any(Number)]);
      expect(full.router.counters.reusePct).toBeLessThan(10);
      expect(reuse(resumed)).toEqual([resumed.name, true, expect.any(Number)]);
      // Judged after each VU's first handshake (a short sample on a busy host has few more); the
      // counts over the samples are the evidence.
      const { handshakes } = resumed.router.counters;
      expect(handshakes.resumed).toBeGreaterThan(handshakes.full);
      expect(resumed.tlsEvidence.text).toMatch(/ % of those after each client's first/);
      expect(full.router.counters.fullHandshakesPerSec).toBeGreaterThan(0);
      // The price of the full handshake: the resumed cell costs the router less per request, or
      // the run says a busy host made the figures noisy (see noisy).
      const cheaper = resumed.cost.router.perRequestUs.median < full.cost.router.perRequestUs.median;
      expect({ termination, cheaper: cheaper || noisy(full, resumed) }).toEqual({
        termination,
        cheaper: true,
      });
      expect(resumed.cost.wrk.perRequestUs.median).toBeGreaterThan(0);
    }
    // Passthrough's TLS ends at the service: the instances' own count of sessions proves each claim
    // (they share session ticket keys, so a ticket resumes on whichever one the router picks).
    for (const name of ['passthrough:1k:close:full', 'passthrough:1k:close:resumed']) {
      const { tlsEvidence, backend } = cell(name);
      expect([name, tlsEvidence.holds, tlsEvidence.text]).toEqual([
        name,
        true,
        expect.stringMatching(/^the service resumed/),
      ]);
      expect(backend.tlsSessions.new + backend.tlsSessions.resumed).toBeGreaterThan(0);
    }
    // What resuming saves is then the service's (haload resumed it).
    expect(results.handshakePrices.map((p) => [p.fullCell, p.role])).toEqual([
      ['edge:1k:close:full', 'router'],
      ['passthrough:1k:close:full', 'service'],
      ['reencrypt:1k:close:full', 'router'],
    ]);
    for (const price of results.handshakePrices) {
      const paid = price.priceUs > 0 || noisy(cell(price.fullCell), cell(price.resumedCell));
      expect({ cell: price.fullCell, paid }).toEqual({ cell: price.fullCell, paid: true });
    }
  });

  test('the floor, the sizing and the report', () => {
    // The floor, measured in the same run with the key and group of a real handshake: no router
    // does a full handshake in less CPU than one signature and one key exchange.
    expect(results.handshakeFloor).toMatchObject({ key: 'rsa2048', group: 'X25519', protocol: 'TLSv1.3' });
    expect(results.handshakeFloor.floorUs).toBeGreaterThan(0);
    const close = cell('edge:1k:close:full');
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
      /### 1k pages, close, resumed TLS sessions \(wrk or haload\)\n\n(- .*\n)*- OCP 4\.x: .*resumption was used/,
    );
    expect(md).toContain('### What resuming saves, and a handshake beyond a plain close');
    expect(fs.readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('<svg');
  });
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
  // An idle router is not the limit: no role was. What set the figure is what the cell's own host
  // figures say: other work on a busy machine ('host'), a full host the roles shared ('shared'),
  // else the offered 50 req/s ('load'). Another build beside this test makes the host busy.
  const roles = easyCell.limitedBy.reasons.map((r) => r.role);
  expect(roles.filter((r) => ['router', 'generator', 'backend'].includes(r))).toEqual([]);
  const hostFull = easyCell.host.busyFraction >= THRESHOLDS.hostBusy;
  const expected = easyCell.limitedBy.hostBusy ? 'host' : hostFull ? 'shared' : 'load';
  expect({ by: easyCell.limitedBy.by, busy: easyCell.host.busyFraction }).toEqual({
    by: expected,
    busy: easyCell.host.busyFraction,
  });
  if (expected === 'load') expect(easyCell.limitedBy.reasons[0].text).toMatch(/offered load \(50 req\/s\)/);
  else expect(roles).toContain(expected);

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

test("--cost-curve: haload at seven rates (the cell's own among them), the router's CPU fitted, the target judged, and the sizing on the curve", async () => {
  const out = path.join(outRoot, 'cost-curve');
  const args = ['--cells', 'http:1k:keepalive', '--duration', '2', '--warmup', '0', '--cooldown', '0'];
  const { code, output } = await runMatrix([
    ...args,
    '--samples',
    '1',
    '--cost-curve',
    '--no-report',
    '--out',
    out,
  ]);
  expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
  const [cell] = readResults(out).cells;
  const curve = cell.costCurve;
  // Seven runs; the fit leaves out the one at the cell's rate (--samples 1), which compares generators.
  expect(curve.points).toHaveLength(7);
  expect(curve).toMatchObject({ tool: 'haload', n: 6 });
  // 1/4, 1/2 and 3/4 of the flat-out rate, then flat out; the fit takes the rates haload got
  // (-R holds it near the offer, a little over it at times).
  const flatOut = curve.points[3];
  expect(flatOut.offeredRps).toBeNull();
  const offers = [0.25, 0.5, 0.75].map((f) => Math.max(1, Math.round(flatOut.rps * f)));
  expect(curve.points.slice(0, 3).map((p) => p.offeredRps)).toEqual(offers);
  const [quarter, half, threeQuarters] = curve.points.map((p) => p.rps);
  // Well below flat out the rate got rises with the offer. Three quarters of one 2 s run's rate is
  // near what the next can do on a shared host (once in CI: 4,506 req/s there, 5,057 at a half).
  expect(quarter).toBeLessThan(half);
  expect(quarter).toBeLessThan(threeQuarters);
  expect(quarter).toBeLessThan(flatOut.rps * 0.5);
  // Three times the rate or more takes the router more CPU; the fit says how much, with its interval.
  expect(flatOut.routerCores).toBeGreaterThan(curve.points[0].routerCores);
  expect(curve.perRequestUs).toBeGreaterThan(0);
  expect(curve.interval.low).toBeLessThanOrEqual(curve.perRequestUs);
  expect(curve.interval.high).toBeGreaterThanOrEqual(curve.perRequestUs);
  expect(readResults(out).sizing.cells[0].routerBasis).toBe('curve');
  // The rate k6 drove the cell at: a first run finds haload's overshoot, then once per sample an
  // offer corrected by it, so that the router is compared under both generators at one rate.
  const rate = Math.round(cell.okRps);
  expect(curve.points[4]).toMatchObject({ offeredRps: rate });
  expect(curve.points[4].generatorRate).toBeUndefined();
  expect(curve.points[5]).toMatchObject({
    generatorRate: true,
    offeredRps: Math.round((rate * rate) / curve.points[4].rps),
  });
  const { generatorEfficiency } = require('../../lib/results-model/generator-efficiency');
  const sameRate = generatorEfficiency(cell).generators.find((g) => g.run === "cost curve, at k6's rate");
  // Compared only where haload got the cell's rate within 10 % (a 2 s run can miss it by more).
  const got = curve.points.filter((p) => p.generatorRate && Math.abs(p.rps / cell.okRps - 1) < 0.1);
  expect(Boolean(sameRate)).toBe(got.length > 0);
  if (sameRate) expect(sameRate.routerUs.median).toBeGreaterThan(0);
  // The sizing's target offered too, and judged: met, or the role that kept the router from it.
  const target = readResults(out).reference.bank.targetTps;
  expect(curve.points[6]).toMatchObject({ target: true, offeredRps: target });
  expect(curve.atTarget).toMatchObject({ offeredRps: target, rps: curve.points[6].rps });
  if (curve.atTarget.met) expect(curve.points[6].rps).toBeGreaterThanOrEqual(target * 0.95);
  else expect(curve.atTarget.limit).toMatch(/^(router|generator|router\+generator|unknown)$/);
});
