'use strict';
// The results document: finalize decides every cell's limitedBy once, from made-up figures; the
// schema refuses a bad document naming the field; renderers format what the document says
// (the TLS row under --insecure).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  RESULTS_VERSION,
  createRun,
  addCell,
  finalize,
  writeResults,
  readResults,
  tlsBlock,
  unknownEnvironment,
} = require('../../lib/results-model/document');
const { environmentRows, cellRows } = require('../../lib/report/tables');
const { describeCell } = require('../../lib/report/console');
const SCHEMA = require('../../lib/results-model/schema.json');
const cells = require('../../k6/lib/cells');

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'matrix-results', 'results.json');

/** A role's cost at 1000 ok req/s, one sample: cores ÷ rate. */
const perRequest = (cores) => {
  const us = (cores / 1000) * 1e6;
  return { perRequestUs: { min: us, median: us, max: us }, perHandshakeUs: null };
};

/** A cell's figures as the matrix records them, with made-up CPU and service time. */
function madeUpCell(
  name,
  {
    k6 = 0.3,
    router = 0.4,
    instance = 0.2,
    serviceP50 = 0.1,
    hostBusy = 0.5,
    crossCheck,
    counters = null,
  } = {},
) {
  const { termination, connection, tlsSession, protocol } = cells.parseCellName(name);
  const size = name.split(':')[1];
  const trend = (v) => ({ count: 1000, avg: v, min: v, p50: v, p90: v, p95: v, p99: v, max: v });
  const cell = {
    name,
    termination,
    pageSize: size === '1k' ? 1024 : 4096,
    connection,
    tlsSession,
    protocol,
    samples: 1,
    combine: 'sequential',
    seconds: 10,
    requests: 10000,
    rps: 1000,
    okRps: 1000,
    rpsPerSample: [1000],
    p50: 1,
    p90: 2,
    p95: 2,
    p99: 3,
    max: 4,
    latencyBasis: 'request_total: blocked + duration of successful responses (ms)',
    errorRate: 0,
    errors: {},
    protocols: { 'HTTP/1.1': 10000 },
    decomposition: {
      connectMs: null,
      tlsHandshakeMs: null,
      waitingMs: trend(1),
      requestMs: trend(1),
      serviceMs: trend(serviceP50),
      routerMs: trend(0.5),
    },
    tlsHandshakeMs: null,
    tlsHandshakes: 0,
    tlsGroup: null,
    serviceTimeMs: { p50: serviceP50, p99: serviceP50, avg: serviceP50 },
    thresholdsCrossed: [],
    generator: {
      tool: 'k6',
      executor: 'constant-vus',
      cpuCores: k6,
      allowedCores: 2,
      droppedIterations: 0,
      vusMax: 32,
      busyVus: 1,
      maxVus: 32,
    },
    backend: {
      instances: [{ name: 'data-service-1', cpuCores: instance }],
      redis: [{ name: 'redis-1', cpuCores: 0.05 }],
    },
    router: { cpuCores: router, counters, countersError: null },
    host: { busyFraction: hostBusy, cores: 2 },
    raw: [`raw/${name.replace(/:/g, '-')}-1.json`],
    cost: {
      router: perRequest(router),
      service: perRequest(instance),
      redis: perRequest(0.05),
      k6: perRequest(k6),
      wrk: null,
      haload: null,
    },
  };
  if (crossCheck) cell.crossCheck = crossCheck;
  return cell;
}

function run(insecure = false) {
  return createRun({
    id: 'test-run',
    startedAt: '2026-11-23T12:00:00.000Z',
    options: {
      quick: true,
      sizes: ['1k'],
      cells: null,
      tlsSessions: ['full', 'resumed'],
      protocols: ['h1'],
      durationSeconds: 10,
      samples: 1,
      warmupSeconds: 0,
      cooldownSeconds: 0,
      executor: 'constant-vus',
      vus: 32,
      rate: null,
      maxVus: 32,
      crossCheck: false,
    },
    // A lab router of 4 threads on a 2-core host: its threads can use 2 cores.
    environment: unknownEnvironment({
      target: 'lab',
      cores: 2,
      router: { threads: 4, maxconn: 50000, cpus: null },
    }),
    tls: tlsBlock({ trust: 'SSL_CERT_FILE=/lab/ca.crt', insecure }),
  });
}

describe('finalize decides every verdict once', () => {
  const doc = run();
  addCell(doc, madeUpCell('http:1k:keepalive'));
  addCell(doc, madeUpCell('edge:1k:keepalive', { k6: 1.9 }));
  addCell(doc, madeUpCell('edge:4k:close:full', { serviceP50: 1.5, instance: 0.95 }));
  addCell(doc, madeUpCell('http:4k:close', { k6: 1.1, hostBusy: 0.99, serviceP50: 0.9 }));
  addCell(doc, madeUpCell('reencrypt:1k:keepalive', { k6: 0.05, router: 0.02, instance: 0.02, hostBusy: 1 }));
  addCell(doc, madeUpCell('edge:1k:close:full', { router: 1.8, k6: 0.1, hostBusy: 0.97 }));
  addCell(
    doc,
    madeUpCell('passthrough:1k:close:full', { k6: 0.6, router: 0.3, instance: 0.9, hostBusy: 0.95 }),
  );
  addCell(doc, madeUpCell('http:4k:keepalive', { k6: 0.9, router: 0.5, instance: 0.4, hostBusy: 0.96 }));
  const results = finalize(doc, { complete: true, finishedAt: '2026-11-23T12:05:00.000Z' });
  const cell = (name) => results.cells.find((c) => c.name === name);
  const roles = (c) => c.limitedBy.reasons.map((r) => r.role);

  test('one limitedBy per cell, with reasons by role, and nothing else carries a verdict', () => {
    // Nothing at its limit and idle cores: the offered load (32 VUs) set the figure.
    expect(cell('http:1k:keepalive').limitedBy).toMatchObject({ by: 'load', hostBusy: false });
    expect(cell('http:1k:keepalive').limitedBy.reasons[0].text).toMatch(/offered load \(32 VUs\)/);
    expect(cell('edge:1k:keepalive').limitedBy).toMatchObject({ by: 'generator', hostBusy: false });
    expect(cell('edge:1k:keepalive').limitedBy.reasons[0]).toEqual({
      role: 'generator',
      text: expect.stringMatching(/k6 used 1\.90 of the 2 cores/),
    });
    expect(cell('edge:4k:close:full').limitedBy.by).toBe('backend');
    expect(roles(cell('edge:4k:close:full'))).toEqual(['backend', 'backend']);
    expect(cell('edge:4k:close:full').limitedBy.reasons[1].text).toMatch(
      /service time p50 rose to 1\.500 ms from 0\.100 ms in the lightest cell \(http:1k:keepalive\)/,
    );
    // k6 at 1.1 of its 2 cores on a full host is a share, not its limit: service time up 9× is.
    expect(cell('http:4k:close').limitedBy.by).toBe('backend');
    // A light cell on a host full of other work: the host, not any role.
    expect(cell('reencrypt:1k:keepalive').limitedBy).toMatchObject({ by: 'host', hostBusy: true });
    expect(roles(cell('reencrypt:1k:keepalive'))).toEqual(['host']);
    // The router at 1.8 of the 2 cores its 4 threads can use: at its limit, by its own CPU.
    expect(cell('edge:1k:close:full').limitedBy.by).toBe('router');
    expect(cell('edge:1k:close:full').limitedBy.reasons[0].text).toMatch(/router used 1\.80 of the 2 core/);
    // Passthrough's handshakes at the service: the instance at one core is the limit, not the router.
    expect(cell('passthrough:1k:close:full').limitedBy.by).toBe('backend');
    // A full host, nobody at a limit: the roles shared it, each one's share shown.
    expect(cell('http:4k:keepalive').limitedBy.by).toBe('shared');
    expect(cell('http:4k:keepalive').limitedBy.reasons[0].text).toMatch(
      /roles shared them \(cores: k6 0\.90, router 0\.50, data service 0\.40, redis 0\.05\); k6 took the largest share/,
    );
    for (const c of results.cells) {
      expect(Object.keys(c.generator)).not.toContain('saturated');
      expect(Object.keys(c.backend)).toEqual(['instances', 'redis']);
      expect(Object.keys(c.host)).toEqual(['busyFraction', 'cores']);
    }
  });

  test('a copy: the working document is untouched, and finalizing again gives the same answer', () => {
    expect(doc.cells[0]).not.toHaveProperty('limitedBy');
    expect(doc.complete).toBe(false);
    expect(results).toMatchObject({ version: RESULTS_VERSION, complete: true });
    expect(finalize(results, { complete: true, finishedAt: results.finishedAt })).toEqual(results);
    // limitedBy sits right after the cell's coordinates.
    expect(Object.keys(results.cells[0]).slice(0, 7)).toEqual([
      'name',
      'termination',
      'pageSize',
      'connection',
      'tlsSession',
      'protocol',
      'limitedBy',
    ]);
  });

  test('the wrk cross-check is evidence against k6', () => {
    const d = run();
    const crossCheck = { tool: 'wrk', rps: 2000, generatorRps: 1000, gap: 0.5, flagged: true };
    addCell(d, madeUpCell('http:1k:keepalive', { crossCheck }));
    const [c] = finalize(d, { complete: true }).cells;
    expect(c.limitedBy.by).toBe('generator');
    expect(c.limitedBy.reasons[0].text).toMatch(
      /wrk got 2000 req\/s through the same cell, 2\.0× k6's 1000 \(k6 fell 50 % short of wrk\)/,
    );
  });

  test('without CPU figures the verdict is unknown, never the router by elimination', () => {
    const d = run();
    const blind = madeUpCell('edge:1k:keepalive');
    blind.generator.cpuCores = null;
    blind.backend.instances = [];
    addCell(d, blind);
    const [c] = finalize(d, { complete: true }).cells;
    expect(c.limitedBy.by).toBe('unknown');
    expect(c.limitedBy.reasons).toEqual([
      {
        role: 'unmeasured',
        text: expect.stringMatching(/the CPU of k6 and the data service was not measured/),
      },
    ]);
  });

  test('renderers only format it: the limited-by column and the report text', () => {
    const { rows } = cellRows(results);
    expect(rows.map((r) => r[r.length - 1])).toEqual([
      'offered load',
      'generator',
      'backend',
      'backend',
      'host busy (other work)',
      'router',
      'backend',
      'shared host',
    ]);
  });
});

describe('results.json on disk', () => {
  let dir;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'results-doc-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const finished = () => {
    const doc = run();
    addCell(doc, madeUpCell('http:1k:keepalive'));
    return finalize(doc, { complete: true, finishedAt: '2026-11-23T12:05:00.000Z' });
  };

  test('written and read back through the schema', () => {
    const doc = finished();
    writeResults(dir, doc);
    expect(readResults(dir)).toEqual(doc);
    // The fixture the report tests render is a valid document too.
    fs.copyFileSync(FIXTURE, path.join(dir, 'results.json'));
    expect(readResults(dir).cells).toHaveLength(16);
  });

  test('a bad document is refused naming the file and the field, on write and on read', () => {
    const missing = finished();
    delete missing.cells[0].okRps;
    const file = path.join(dir, 'results.json');
    expect(() => writeResults(dir, missing)).toThrow(
      `${file} does not match lib/results-model/schema.json: /cells/0 must have required property 'okRps'`,
    );
    expect(fs.existsSync(file)).toBe(false);

    const wrongType = finished();
    wrongType.cells[0].limitedBy.by = 'k6';
    fs.writeFileSync(file, JSON.stringify(wrongType));
    expect(() => readResults(dir)).toThrow(
      /\/cells\/0\/limitedBy\/by must be equal to one of the allowed values/,
    );

    const extra = finished();
    extra.cells[0].generator.saturated = true;
    fs.writeFileSync(file, JSON.stringify(extra));
    expect(() => readResults(dir)).toThrow(
      "/cells/0/generator must NOT have additional properties 'saturated'",
    );
  });

  test('another version is refused, saying which was found and which is supported', () => {
    const old = { ...finished(), version: 1 };
    fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(old));
    expect(() => readResults(dir)).toThrow(
      new RegExp(
        `results\\.json is results version 1; this version of Router Lab reads versions 6 and ${RESULTS_VERSION} only`,
      ),
    );
  });

  test('version 6 still reads: its shape is 7 without the fields 7 added', () => {
    expect(RESULTS_VERSION).toBe(7);
    const older = { ...finished(), version: 6 };
    fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(older));
    expect(readResults(dir).version).toBe(6);
  });
});

describe('the TLS row renders results.tls', () => {
  const row = (results) => environmentRows(results).rows.find(([name]) => name === 'TLS trust')[1];

  test('verified routes: passthrough only skips verification', () => {
    expect(row(finalize(run(false), { complete: true }))).toMatch(
      /^SSL_CERT_FILE=\/lab\/ca\.crt; verification skipped for passthrough only \(a passthrough route/,
    );
  });

  test('--insecure: every route skipped verification, and the row says so', () => {
    const text = row(finalize(run(true), { complete: true }));
    expect(text).toMatch(
      /verification skipped on every route \(edge, passthrough, reencrypt\) \(--insecure:/,
    );
    expect(text).not.toMatch(/passthrough only/);
  });
});

describe('the schema speaks the one vocabulary (k6/lib/cells.js)', () => {
  const cell = SCHEMA.$defs.cell.properties;

  test('terminations, connections, page sizes and cell names', () => {
    expect(cell.termination.enum).toEqual(cells.TERMINATIONS);
    expect(cell.connection.enum).toEqual(cells.CONNECTIONS);
    expect(cell.tlsSession.enum).toEqual([...cells.TLS_SESSIONS, null]);
    expect(cell.pageSize.maximum).toBe(cells.MAX_PAGE_BYTES);
    const https = cells.TERMINATIONS.filter((t) => t !== 'http');
    expect(SCHEMA.$defs.tls.properties.skipped.items.enum).toEqual(https);
    const names = new RegExp(cell.name.pattern);
    for (const termination of cells.TERMINATIONS) {
      for (const bytes of [1, 1000, 1024, 4096, cells.MAX_PAGE_BYTES]) {
        for (const connection of cells.CONNECTIONS) {
          for (const session of cells.TLS_SESSIONS) {
            const name = cells.cellName({ termination, pageSize: bytes, connection, tlsSession: session });
            expect(name).toMatch(names);
            expect(cells.parseCellName(name).name).toBe(name);
          }
        }
      }
    }
  });
});

describe('TLS sessions of close cells, from the router’s own counters', () => {
  const counters = (reusePct, fullHandshakesPerSec) => ({
    readings: 6,
    fullHandshakesPerSec,
    backendFullHandshakesPerSec: 0,
    tlsSessionsPerSec: 1000,
    reusePct,
    sessionsPerSec: 1000,
    currentConnections: { median: 32, max: 33 },
    queued: { median: 0, max: 0 },
  });
  const floor = { key: 'rsa2048', group: 'X25519', signUs: 600, keyExchangeUs: 100, floorUs: 700 };

  function finalized(...cellsToAdd) {
    const d = run();
    d.handshakeFloor = floor;
    for (const c of cellsToAdd) addCell(d, c);
    const results = finalize(d, { complete: true });
    return (name) => results.cells.find((c) => c.name === name) || results;
  }

  test('a claim holds only inside its bound: resumed ≥ 90 % reuse, full ≤ 10 %', () => {
    const get = finalized(
      madeUpCell('edge:1k:close:resumed', { counters: counters(99, 10) }),
      madeUpCell('edge:4k:close:resumed', { counters: counters(89.9, 100) }),
      madeUpCell('reencrypt:1k:close:full', { counters: counters(0, 1000) }),
      madeUpCell('reencrypt:4k:close:full', { counters: counters(10.1, 900) }),
      madeUpCell('edge:1k:keepalive', { counters: counters(0, 1) }),
    );
    expect(get('edge:1k:close:resumed').tlsEvidence).toMatchObject({
      claim: 'resumed',
      reusePct: 99,
      holds: true,
    });
    expect(get('edge:4k:close:resumed').tlsEvidence).toMatchObject({ holds: false });
    expect(get('edge:4k:close:resumed').tlsEvidence.text).toMatch(
      /NOT resumed as claimed: .*89\.9 %.*at least 90 %/,
    );
    // The line printed as the cell finishes says so too.
    expect(describeCell(get('edge:4k:close:resumed'))).toMatch(/⚠ NOT resumed as claimed/);
    expect(describeCell(get('edge:1k:close:resumed'))).not.toMatch(/⚠/);
    expect(get('reencrypt:1k:close:full').tlsEvidence).toMatchObject({ claim: 'full', holds: true });
    expect(get('reencrypt:4k:close:full').tlsEvidence.text).toMatch(/NOT full as claimed: .*at most 10 %/);
    // Keep-alive and http cells claim no kind of session.
    expect(get('edge:1k:keepalive').tlsEvidence).toBeNull();
  });

  test('unchecked where the router ends no TLS or read no counters, and said so', () => {
    const get = finalized(
      madeUpCell('passthrough:1k:close:full', { counters: counters(0, 0) }),
      madeUpCell('edge:1k:close:full'),
    );
    expect(get('passthrough:1k:close:full').tlsEvidence).toMatchObject({ holds: null });
    expect(get('passthrough:1k:close:full').tlsEvidence.text).toMatch(/ends at the service/);
    expect(get('edge:1k:close:full').tlsEvidence.text).toMatch(/counters were not read/);
  });

  test('a router at its limit is said to be limited by handshakes when they take most of its CPU', () => {
    // 1.8 cores of router; 2400 full handshakes/s × 700 µs = 1.68 cores: 93 % of it.
    const get = finalized(
      madeUpCell('edge:1k:close:full', { router: 1.8, counters: counters(0, 2400) }),
      madeUpCell('edge:4k:close:full', { router: 1.8, counters: counters(0, 500) }),
    );
    const busy = get('edge:1k:close:full');
    expect(busy.tlsEvidence).toMatchObject({ handshakeCores: 1.68, handshakeShare: 0.933 });
    expect(busy.limitedBy.by).toBe('router');
    expect(busy.limitedBy.reasons.map((r) => r.text)).toContainEqual(
      expect.stringMatching(
        /limited by TLS handshakes: 2400 full handshakes\/s take at least 93 % of its CPU/,
      ),
    );
    expect(get('edge:4k:close:full').limitedBy.reasons.map((r) => r.text)).toContainEqual(
      expect.stringMatching(/not mainly by TLS handshakes: 500 full handshakes\/s take at least 19 %/),
    );
    // Re-encrypt: the router's handshakes to the service are named, and the share stays the
    // frontend's (2400 × 700 µs over 1.8 cores), since the floor is the server's side.
    const reencrypt = finalized(
      madeUpCell('reencrypt:1k:close:full', {
        router: 1.8,
        counters: { ...counters(0, 2400), backendFullHandshakesPerSec: 2350 },
      }),
    )('reencrypt:1k:close:full');
    expect(reencrypt.tlsEvidence).toMatchObject({ handshakeShare: 0.933 });
    const reasons = reencrypt.limitedBy.reasons.map((r) => r.text);
    expect(reasons).toContainEqual(
      expect.stringMatching(
        /limited by TLS handshakes: 2400 full handshakes\/s take at least 93 % .*; its 2350 full handshakes\/s to the service are not in that share$/,
      ),
    );
    expect(busy.limitedBy.reasons.map((r) => r.text).join('\n')).not.toMatch(/to the service/);
  });

  test('what resuming saves is the full cell’s cost minus the resumed one’s, beside the floor; each beyond a plain close', () => {
    // Router cost: 1.8 cores ÷ 1000 req/s = 1800 µs full, 0.4 cores = 400 µs resumed, 0.1 plain (http).
    const results = finalized(
      madeUpCell('http:1k:close', { router: 0.1 }),
      madeUpCell('edge:1k:close:full', { router: 1.8 }),
      madeUpCell('edge:1k:close:resumed', { router: 0.4 }),
      madeUpCell('reencrypt:1k:close:full', { router: 1 }),
    )();
    expect(results.handshakePrices).toEqual([
      {
        termination: 'edge',
        pageSize: 1024,
        role: 'router',
        fullCell: 'edge:1k:close:full',
        resumedCell: 'edge:1k:close:resumed',
        fullUs: 1800,
        resumedUs: 400,
        priceUs: 1400,
        floorUs: 700,
        floorMultiple: 2,
        plainUs: 100,
        // A full handshake beyond the plain close: 1700 µs, 2.43× the floor; a resumed session's own: 300.
        fullBeyondPlainUs: 1700,
        fullBeyondPlainMultiple: 2.43,
        resumedBeyondPlainUs: 300,
        generators: { full: 'k6', resumed: 'k6', plain: 'k6' },
        hostBusy: false,
        oneGenerator: null,
      },
    ]);
  });

  test('where haload drove the full, resumed and plain close runs alike (--cross-check), the price holds its figures too', () => {
    // The cross-check's router µs per request, as addCrossCheck leaves it: 1500 full, 600 resumed, 150 plain.
    const haload = (median) => ({
      tool: 'haload',
      rps: 900,
      routerPerRequestUs: median,
      routerUs: { median },
    });
    const results = finalized(
      madeUpCell('http:1k:close', { router: 0.1, crossCheck: haload(150) }),
      madeUpCell('edge:1k:close:full', { router: 1.8, crossCheck: haload(1500) }),
      madeUpCell('edge:1k:close:resumed', { router: 0.4, crossCheck: haload(600) }),
    )();
    expect(results.handshakePrices[0].oneGenerator).toEqual({
      tool: 'haload',
      fullUs: 1500,
      resumedUs: 600,
      priceUs: 900,
      floorMultiple: 1.29,
      plainUs: 150,
      fullBeyondPlainUs: 1350,
      fullBeyondPlainMultiple: 1.93,
      resumedBeyondPlainUs: 450,
    });
    // Without haload on the resumed run there is no one-generator figure: the plain close alone is optional.
    const partial = finalized(
      madeUpCell('edge:1k:close:full', { router: 1.8, crossCheck: haload(1500) }),
      madeUpCell('edge:1k:close:resumed', { router: 0.4 }),
    )();
    expect(partial.handshakePrices[0].oneGenerator).toBeNull();
  });
});
