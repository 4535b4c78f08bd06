'use strict';
// The report renders from a fixed results.json: a real default run with --cross-check on a 2-core
// machine, kept in test/fixtures.
const fs = require('node:fs');
const { protocolVerdict } = require('../../lib/results-model/protocol-evidence');
const os = require('node:os');
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');
const { renderReport } = require('../../lib/report/index');
const { comparisonGroups } = require('../../lib/report/compare');

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'matrix-results', 'results.json');

let dir;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-test-'));
  fs.copyFileSync(FIXTURE, path.join(dir, 'results.json'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('report from a fixed results.json', () => {
  test('report.md has the matrix, the saturation verdicts and the reference ratios', () => {
    const results = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
    const { md } = renderReport(dir);
    const text = fs.readFileSync(md, 'utf8');
    for (const cell of results.cells) expect(text).toContain(`| ${cell.name} |`);
    expect(results.cells.some((c) => c.limitedBy.by === 'generator')).toBe(true);
    expect(text).toMatch(/cells were not limited by the router/);
    expect(text).toMatch(/## Cross-check: the second generator/);
    // wrk 7425.78 against k6 3329.7: wrk got 2.23× k6's rate; k6 fell 55.2 % short of wrk.
    expect(text).toContain(
      '| generator ok req/s | tool req/s | tool ÷ generator | generator short of tool |',
    );
    expect(text).toContain('| http:1k:keepalive | k6 3330 | wrk 7426 | 2.23× | 55.2 % |');
    // Each generator's own µs per request; this older run recorded no router CPU under wrk.
    expect(text).toMatch(/### The generators’ own cost, and the router’s under each/);
    expect(text).toContain('| http:1k:keepalive | k6: 3330, 126 | 36 |');
    expect(text).toContain('|  | wrk (cross-check): 7426, 12 | – | – | – |  |');
    expect(text).toContain('4 vCPU / 16 GB public cloud instance, one HAProxy, 100 routes, HTTP keep-alive');
    // edge ÷ http in Red Hat's 3.x 1 kB keep-alive column: 7467 / 15435, after this run's req/s
    // ratio (⚠: generator-bound) and its capacity-per-core ratio (19881 / 27778).
    expect(text).toMatch(/\| edge \| [^|]+ \| [\d.–]+ ⚠ \| 0\.72 \| 0\.48 \|/);
  });

  test('report.md leads with the router’s cost, then the limits, and has cost, capacity and sizing', () => {
    const { md } = renderReport(dir);
    const text = fs.readFileSync(md, 'utf8');
    // The banner: the router's figures come first, the limits after them.
    const lead = text.indexOf(
      // At the rate the figure was taken: the cost per request falls as the rate rises.
      '> **The router spent 36 µs of CPU per request over http 1k keep-alive at 3330 req/s from k6: 27.8k req/s per core',
    );
    expect(lead).toBeGreaterThan(0);
    expect(lead).toBeLessThan(text.indexOf('cells were not limited by the router'));
    expect(lead).toBeLessThan(text.indexOf('## Results'));
    expect(text).toMatch(
      /It spent 761 µs per full handshake in edge 1k close: 3\.02× the handshake floor of 252 µs \(RSA 2048 signature \+ X25519\)/,
    );
    expect(text).toContain('| passthrough 1k | 27 | 36496 | 223 | 4490 | 3.26× (at the data service) |');
    // What limited each cell, as figures: each role's cores, the cores other work took, how busy
    // the host was; words only for a role's own evidence (here wrk's rate against k6's).
    expect(text).toContain(
      '| cell | limited by | router cores | generator cores | data service cores | redis cores | other work cores | host busy | evidence |',
    );
    expect(text).toContain(
      '| edge:1k:close:full | host busy (other work) | 0.30 | k6 0.33 | 0.14 | – | 1.23 | 100 % | – |',
    );
    expect(text).toContain(
      "| http:1k:keepalive | generator (host busy) | 0.12 | k6 0.42 | 0.34 | – | 1.12 | 100 % | wrk got 7426 req/s through the same cell, 2.2× k6's 3330 (k6 fell 55 % short of wrk) |",
    );
    expect(text.indexOf('## What limited each cell')).toBeLessThan(text.indexOf('## Results'));
    expect(text).not.toContain('cores went to processes outside the test');
    // The main table: the router's µs per request and capacity per core, the generator's µs per request.
    expect(text).toContain(
      '| cell | router µs/req | router capacity/core (req/s) | generator µs/req | ok req/s |',
    );
    expect(text).toContain('| http:1k:keepalive | 36 | 27778 | k6 126 | 3330 |');
    // Cost and capacity: every role, the projection and its assumption; handshakes against the floor.
    expect(text).toContain('## Cost and capacity');
    expect(text).toContain(
      '| http:1k:keepalive | 36 | 102 | – | 126 | 12 | 27778 | 55556 on 2 core(s) | – |',
    );
    expect(text).toMatch(
      /\*\*Assumption:\*\* projection: .*assumes the cost per request stays flat up to saturation/,
    );
    expect(text).toContain('The floor: 252 µs of CPU per full TLSv1.3 handshake');
    expect(text).toContain('the router runs on OpenSSL 3.0.19');
    expect(text).toContain('| passthrough:1k:close:full | X25519 | data service | 223 | 822 | 3.26× |');
    expect(text).toContain('| reencrypt:1k:close:full | X25519 | router | 1280 | 819 | 5.08× |');
    // Sizing at the bank's 5000 TPS, wrk's unknown cost as –, the assumptions verbatim.
    expect(text).toContain('## Sizing for 5000 TPS');
    expect(text).toContain('| cell | router cores | data-service instances | k6 cores | wrk cores |');
    expect(text).toContain('| edge:1k:close:full | 6 | 3 | 6 | – |');
    expect(text).toContain('| http:1k:keepalive | 1 | 1 | 1 | 1 |');
    expect(text).toContain('- a projection from one machine, not a cluster measurement');
    expect(text).toContain('`npm run sizing -- <results dir> --tps N`');
    // The Red Hat comparison says which ratio is the router's.
    expect(text).toContain('this run capacity/core ÷ http (the router’s)');
    expect(text).toMatch(/the capacity-per-core ratio always is/);
  });

  test('reference ratios are computed against the http row of the same run and the same column', () => {
    const results = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
    const group = comparisonGroups(results).find((g) => g.pageSize === 1024 && g.connection === 'keepalive');
    const http = results.cells.find((c) => c.name === 'http:1k:keepalive');
    const edge = group.rows.find((r) => r.termination === 'edge');
    expect(edge.run.ratio).toBeCloseTo(
      results.cells.find((c) => c.name === 'edge:1k:keepalive').okRps / http.okRps,
      6,
    );
    const ocp4 = edge.refs.find((r) => r.key === 'keepalive-hostnet');
    expect(ocp4.ratio).toBeCloseTo(22913 / 29622, 6);
    expect(ocp4.normalisedRps).toBeCloseTo(http.okRps * (22913 / 29622), 6);
  });

  test('close cells are compared like with like: OpenShift 4.x with resumed sessions, 3.11 with both', () => {
    const results = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
    // The fixture's close cells are full; a resumed edge cell beside them, at twice the req/s.
    const full = results.cells.find((c) => c.name === 'edge:1k:close:full');
    results.cells.push({
      ...full,
      name: 'edge:1k:close:resumed',
      tlsSession: 'resumed',
      okRps: full.okRps * 2,
    });
    results.skippedCells = [
      { name: 'passthrough:1k:close:resumed', reason: 'wrk cannot send the route host as SNI' },
    ];
    const groups = comparisonGroups(results).filter((g) => g.pageSize === 1024 && g.connection === 'close');
    const byKind = Object.fromEntries(groups.map((g) => [g.tlsSession, g]));
    expect(Object.keys(byKind).sort()).toEqual(['full', 'resumed']);
    const tablesOf = (g) => [...new Set(g.columns.map((c) => c.tableId))].sort();
    expect(tablesOf(byKind.resumed)).toEqual(['ocp311-threads', 'ocp4-publishing']);
    expect(tablesOf(byKind.full)).toEqual(['ocp311-threads']);
    expect(byKind.resumed.title).toBe('1k pages, close, resumed TLS sessions (wrk or haload)');
    expect(byKind.resumed.notes).toContainEqual(
      expect.stringMatching(/OCP 4\.x: .*TLS session resumption was used/),
    );
    expect(byKind.resumed.notes).toContainEqual(expect.stringMatching(/OCP 3\.11: .*does not say/));
    expect(byKind.resumed.notes).toContainEqual(
      expect.stringMatching(
        /no resumed cell for passthrough, reencrypt in this run: wrk cannot send the route host as SNI/,
      ),
    );
    const http = results.cells.find((c) => c.name === 'http:1k:close');
    const edge = byKind.resumed.rows.find((r) => r.termination === 'edge');
    expect(edge.run.cell).toBe('edge:1k:close:resumed');
    expect(edge.run.ratio).toBeCloseTo((full.okRps * 2) / http.okRps, 6);
    expect(byKind.full.rows.find((r) => r.termination === 'edge').run.cell).toBe('edge:1k:close:full');
    const ocp4 = edge.refs.find((r) => r.key === 'close-hostnet');
    expect(ocp4.ratio).toBeCloseTo(4069 / 8273, 6);
    expect(ocp4.normalisedRps).toBeCloseTo(http.okRps * (4069 / 8273), 6);
  });

  test('the banner sets resumed close cells beside full ones: what resuming saves, and each beyond a plain close', () => {
    const { routerFigures } = require('../../lib/report/headline');
    const { handshakePrices } = require('../../lib/results-model/derived');
    const results = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
    const full = results.cells.find((c) => c.name === 'edge:1k:close:full');
    const spread = { min: 400, median: 400, max: 400 };
    results.cells.push({
      ...full,
      name: 'edge:1k:close:resumed',
      tlsSession: 'resumed',
      cost: { ...full.cost, router: { perRequestUs: spread, perHandshakeUs: null } },
      capacity: { ...full.capacity, perCoreRps: 2500 },
    });
    results.handshakePrices = handshakePrices(results.cells, results.handshakeFloor);
    const figures = routerFigures(results);
    expect(figures.lead.join(' ')).toMatch(
      /It spent 761 µs per full handshake in edge 1k close: .*Resuming the TLS session instead, it spent 400 µs per request in edge 1k close: resuming saves the router 361 µs, 1\.43× the floor, noisy: other work kept the host busy \(k6 drove them all\)\./,
    );
    // The fixture's cells ran on a busy host; on a quiet one the price stands as it is.
    const quiet = results.cells.map((c) => ({ ...c, limitedBy: { ...c.limitedBy, hostBusy: false } }));
    const quietLead = routerFigures({
      ...results,
      handshakePrices: handshakePrices(quiet, results.handshakeFloor),
    }).lead.join(' ');
    expect(quietLead).toContain('resuming saves the router 361 µs, 1.43× the floor (k6 drove them all).');
    // Against the plain close (http 1k close, 100 µs): the full handshake's own cost, and the resumed session's.
    expect(figures.lead.join(' ')).toContain(
      'Beyond a plain close (http, 100 µs), a full handshake costs it 661 µs (2.62× the floor) and a resumed session 300 µs of its own.',
    );
    expect(figures.table.head.slice(-2)).toEqual([
      'close µs/req (TLS sessions resumed)',
      'resumed capacity/core (req/s)',
    ]);
    expect(figures.table.rows.find((row) => row[0] === 'edge 1k').slice(-2)).toEqual(['400', '2500']);
    expect(figures.table.rows.find((row) => row[0] === 'http 1k').slice(-2)).toEqual(['–', '–']);
  });

  test('where haload drove the full, resumed and plain close runs alike, the banner and the table take its figures', () => {
    const { routerFigures } = require('../../lib/report/headline');
    const { handshakePriceRows } = require('../../lib/report/tables');
    const results = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
    results.handshakePrices = [
      {
        termination: 'edge',
        pageSize: 1024,
        role: 'router',
        fullCell: 'edge:1k:close:full',
        resumedCell: 'edge:1k:close:resumed',
        generators: { full: 'k6', resumed: 'wrk', plain: 'k6' },
        floorUs: 500,
        fullUs: 1800,
        resumedUs: 400,
        priceUs: 1400,
        floorMultiple: 2.8,
        plainUs: 100,
        fullBeyondPlainUs: 1700,
        fullBeyondPlainMultiple: 3.4,
        resumedBeyondPlainUs: 300,
        oneGenerator: {
          tool: 'haload',
          fullUs: 1500,
          resumedUs: 600,
          priceUs: 900,
          floorMultiple: 1.8,
          plainUs: 150,
          fullBeyondPlainUs: 1350,
          fullBeyondPlainMultiple: 2.7,
          resumedBeyondPlainUs: 450,
        },
      },
    ];
    const lead = routerFigures(results).lead.join(' ');
    expect(lead).toContain(
      'it spent 600 µs per request in edge 1k close: resuming saves the router 900 µs, 1.80× the floor (haload drove the full, resumed and plain close runs alike).',
    );
    // Without haload's figures: the cells' tools, an estimate across them, and how to get one tool.
    const [price] = results.handshakePrices;
    const crossed = {
      ...results,
      options: { ...results.options, crossCheck: false },
      handshakePrices: [{ ...price, oneGenerator: null }],
    };
    expect(routerFigures(crossed).lead.join(' ')).toContain(
      '(k6 full, wrk resumed, k6 plain: across tools and loads, an estimate; --cross-check drives all three with haload).',
    );
    // Asked, but haload's runs were skipped: no advice to ask again.
    const asked = { ...crossed, options: { ...results.options, crossCheck: true } };
    expect(routerFigures(asked).lead.join(' ')).toContain(
      '(k6 full, wrk resumed, k6 plain: across tools and loads, an estimate).',
    );
    expect(lead).toContain(
      'a full handshake costs it 1350 µs (2.70× the floor) and a resumed session 450 µs of its own.',
    );
    // Both rows in the table: the cells' own generators, then haload's.
    const { rows } = handshakePriceRows(results);
    expect(rows.map((r) => [r[3], r[6]])).toEqual([
      ['k6, wrk, k6', '1400.0'],
      ['haload alone', '900.0'],
    ]);
    // A price from cells on a busy host is marked, as they are.
    const busy = handshakePriceRows({ ...results, handshakePrices: [{ ...price, hostBusy: true }] });
    expect(busy.rows.map((r) => r[6])).toEqual(['1400.0 ⚠ host busy', '900.0 ⚠ host busy']);
  });

  test('under the Gateway API the banner names Envoy as what spent the CPU, not the router, and what it leaves out', () => {
    const { routerFigures } = require('../../lib/report/headline');
    const results = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
    expect(routerFigures(results).lead[0]).toMatch(/^The router spent 36 µs/);
    results.environment.router = { ...results.environment.router, kind: 'gateway', envoy: '1.40.0' };
    const { lead } = routerFigures(results);
    expect(lead[0]).toMatch(/^Envoy 1\.40\.0 \(the Gateway's data path\) spent 36 µs/);
    // Beside the figure: what the lab's Envoy leaves out that a cluster's runs.
    expect(lead[1]).toMatch(
      /^Upstream Envoy runs none of Istio's own filters .* a cluster's Envoy spends a little more/,
    );
  });

  test('bad input is refused with the file named', () => {
    fs.writeFileSync(path.join(dir, 'results.json'), '{"id": 1');
    expect(() => renderReport(dir)).toThrow(/results\.json is not valid JSON/);
  });
});

describe('report figures', () => {
  const {
    cellRows,
    decompositionRows,
    formatCellTable,
    sizingRows,
    handshakeRows,
    environmentRows,
  } = require('../../lib/report/tables');
  const { describeCell } = require('../../lib/report/console');
  const { renderMarkdown } = require('../../lib/report/markdown');
  const { finishRun } = require('../../lib/matrix/finish');
  const results = () => JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));

  test('the main table leads with the router’s cost; its req/s is successful requests per second', () => {
    const r = results();
    const [first, second] = r.cells;
    first.okRps = first.rps - 100;
    first.cost.router.perRequestUs = { min: 33.2, median: 36.4, max: 40.1 };
    const { head, rows } = cellRows(r);
    expect(head.slice(0, 5)).toEqual([
      'cell',
      'router µs/req',
      'router capacity/core (req/s)',
      'generator µs/req',
      'ok req/s',
    ]);
    expect(head).toContain('TLS ms per handshake');
    expect(head[head.length - 1]).toBe('limited by');
    const ok = head.indexOf('ok req/s');
    expect(rows[0][ok]).toBe(String(Math.round(first.rps - 100)));
    expect(rows[1][ok]).toBe(String(Math.round(second.okRps)));
    // The spread shows where the samples differ, the median alone where they agree.
    expect(rows[0].slice(1, 4)).toEqual(['36 (33–40)', '27778', 'k6 126']);
    expect(rows[1].slice(1, 4)).toEqual(['100', '10010', 'k6 231']);
    // The console table at the end of a run carries the same columns.
    expect(formatCellTable(r).split('\n')[0]).toMatch(
      /^cell +router µs\/req +router capacity\/core \(req\/s\) +generator µs\/req/,
    );
    const group = comparisonGroups(r).find((g) =>
      g.rows.some((row) => row.run && row.run.rps === first.okRps),
    );
    expect(group).toBeDefined();
  });

  test('the capacity ratio to http is the router’s own; the req/s ratio only where the router limited both', () => {
    const r = results();
    const ratioOf = (doc, name) =>
      comparisonGroups(doc)
        .find((g) => g.pageSize === 1024 && g.connection === 'keepalive')
        .rows.find((row) => row.termination === name).run;
    const edge = ratioOf(r, 'edge');
    expect(edge.capacityRatio).toBeCloseTo(19881 / 27778, 6);
    expect(edge.routerFigure).toBe(false);
    // The edge cell alone at the router's limit is not enough: http must be the router's too.
    const cell = (name) => r.cells.find((c) => c.name === name);
    cell('edge:1k:keepalive').limitedBy = { by: 'router', hostBusy: false, reasons: [] };
    expect(ratioOf(r, 'edge').routerFigure).toBe(false);
    cell('http:1k:keepalive').limitedBy = { by: 'router', hostBusy: false, reasons: [] };
    expect(ratioOf(r, 'edge').routerFigure).toBe(true);
    // Without the router's cost there is no capacity ratio, not a zero.
    cell('edge:1k:keepalive').capacity = null;
    expect(ratioOf(r, 'edge').capacityRatio).toBeNull();
  });

  test('each finished cell’s console line has the router’s µs per request and capacity per core', () => {
    const r = results();
    expect(describeCell(r.cells[0])).toMatch(
      /^http:1k:keepalive +3330 ok rps {2}router 36 µs\/req, 27\.8k req\/s per core {2}p99 49\.5 ms/,
    );
    const blind = { ...r.cells[0], cost: { ...r.cells[0].cost, router: null }, capacity: null };
    // Not measured (a cluster run): nothing is claimed, and the line keeps its old shape.
    expect(describeCell(blind)).toMatch(/^http:1k:keepalive +3330 ok rps {2}p99 49\.5 ms/);
  });

  test('without a handshake floor or a sizing the report says so, and unknown sizes read –', () => {
    const r = results();
    r.handshakeFloor = null;
    for (const c of r.cells) c.floorMultiple = null;
    expect(handshakeRows(r).rows.find((row) => row[0] === 'edge:1k:close:full')).toEqual([
      'edge:1k:close:full',
      'X25519',
      'router',
      '761',
      '355',
      '–',
    ]);
    expect(sizingRows(r).rows.find((row) => row[0] === 'passthrough:1k:keepalive')[4]).toBe('–');
    let text = renderMarkdown(r);
    expect(text).toContain('The handshake floor was not measured in this run');
    expect(text).toMatch(
      /It spent 761 µs per full handshake in edge 1k close; the handshake floor was not measured/,
    );
    r.sizing = null;
    text = renderMarkdown(r);
    expect(text).toContain('No sizing: the run was not finalized.');
  });

  test("a control plane apart from the router (the Gateway's istiod) gets its own column of cores, and the router row names Envoy", () => {
    const r = results();
    const { limitRows } = require('../../lib/report/tables');
    expect(limitRows(r).head).not.toContain('control plane cores');
    for (const c of r.cells) c.router.controlPlaneCpuCores = 0.01;
    const { head, rows } = limitRows(r);
    expect(head.slice(2, 4)).toEqual(['router cores', 'control plane cores']);
    expect(rows.every((row) => row[3] === '0.01')).toBe(true);
    r.environment.router = {
      ...r.environment.router,
      kind: 'gateway',
      envoy: '1.40.0',
      istio: 'v0',
      passthroughBalance: null,
    };
    const router = environmentRows(r).rows.find(([name]) => name === 'router')[1];
    expect(router).toMatch(/^Envoy 1\.40\.0 configured by istiod \(Istio v0\), \d+ thread\(s\), maxconn \d+/);
    expect(router).not.toContain('passthrough balance');
  });

  test('a cell whose client read another HTTP version than claimed is named; the environment says what shapes TLS', () => {
    const r = results();
    expect(renderMarkdown(r)).not.toMatch(/did not run over the HTTP version/);
    expect(renderMarkdown(r)).toContain('| edge:1k:keepalive | h1 | 100 % | – | yes | – |');
    const edge = r.cells.find((c) => c.name === 'edge:1k:keepalive');
    edge.protocols = { 'HTTP/2.0': edge.requests };
    edge.protocolEvidence = protocolVerdict(edge);
    expect(renderMarkdown(r)).toContain(
      '> **1 cell(s) did not run over the HTTP version their name claims**: edge:1k:keepalive: the client read HTTP/2.0 100 %: not the h1 its name claims.',
    );
    Object.assign(r.environment, {
      haproxy: '3.0.11-9e587df',
      haproxyOpenssl: 'OpenSSL 3.0.19 27 Jan 2026',
      alpnPolicy: 'http/1.1',
      openshiftRelease: '4.22',
    });
    r.environment.router.balance = {
      passthrough: { balance: 'source', manifest: 'random', override: 'source' },
      http: { balance: 'random', manifest: 'random', override: null },
    };
    r.environment.router.tlsGroups = {
      offered: ['X25519', 'P-256', 'P-384', 'P-521'],
      missing: ['X25519MLKEM768'],
    };
    const env = Object.fromEntries(environmentRows(r).rows);
    expect(env.tools).toContain('HAProxy 3.0.11-9e587df on OpenSSL 3.0.19 27 Jan 2026');
    expect(env.TLS).toBe(
      'router key rsa2048, group X25519, groups offered X25519:P-256:P-384:P-521 (X25519MLKEM768 left out: not in ' +
        'the router’s OpenSSL), ALPN http/1.1 only (OpenShift’s default: no h2), OpenShift 4.22’s Intermediate profile',
    );
    expect(env.router).toContain('(the passthrough Route says random; LAB_PASSTHROUGH_BALANCE overrode it)');
  });

  /** The fixture with a resumed edge 1k close cell whose router counters read `counters`. */
  function withResumedEdge(r, counters) {
    const { sessionVerdict } = require('../../lib/results-model/verdicts');
    const full = r.cells.find((c) => c.name === 'edge:1k:close:full');
    const resumed = {
      ...full,
      name: 'edge:1k:close:resumed',
      tlsSession: 'resumed',
      generator: { ...full.generator, tool: 'wrk' },
      router: { ...full.router, counters },
    };
    resumed.tlsEvidence = sessionVerdict(resumed, r.handshakeFloor);
    r.cells.push(resumed);
    return resumed;
  }

  const COUNTERS = {
    readings: 20,
    fullHandshakesPerSec: 310.5,
    backendFullHandshakesPerSec: 0,
    tlsSessionsPerSec: 540,
    reusePct: 42.5,
    sessionsPerSec: 545.2,
    currentConnections: { median: 12, max: 16 },
    queued: { median: 0, max: 3 },
  };
  const htmlCell = (text) => `<td>${text}</td>`;

  test('a cell whose TLS sessions were not the kind it claims is flagged in its comparison group', () => {
    const { renderHtml } = require('../../lib/report/html');
    const r = results();
    withResumedEdge(r, COUNTERS);
    const group = comparisonGroups(r).find(
      (g) => g.pageSize === 1024 && g.connection === 'close' && g.tlsSession === 'resumed',
    );
    const note =
      '⚠ edge:1k:close:resumed: the router resumed 42.5 % of its TLS sessions, so it did not measure resumed ' +
      'sessions as its name claims; its row is not like for like with these columns';
    expect(group.notes).toContain(note);
    const md = renderMarkdown(r);
    expect(md).toContain(`- ${note}`);
    expect(md).toMatch(/\| edge ⚠ sessions not as claimed \| /);
    const html = renderHtml(r);
    expect(html).toContain(`<li>${note}</li>`);
    expect(html).toContain(htmlCell('edge ⚠ sessions not as claimed'));
    // The claim holding (or not checked), the row and the notes stay plain.
    const holding = results();
    withResumedEdge(holding, { ...COUNTERS, reusePct: 97 });
    const plain = renderMarkdown(holding);
    expect(plain).not.toContain('sessions not as claimed');
    expect(plain).not.toContain('did not measure resumed sessions');
  });

  test('the sessions and router-counters tables show the counters a cell read', () => {
    const { renderHtml } = require('../../lib/report/html');
    const r = results();
    const resumed = withResumedEdge(r, { ...COUNTERS, reusePct: 97, fullHandshakesPerSec: 16 });
    const md = renderMarkdown(r);
    const html = renderHtml(r);
    // Sessions: the generator, full handshakes/s, the resumed share, the floor's share of the
    // router's CPU (16/s × 252 µs over the cores it used), and the claim checked.
    const share = `${Math.round(((16 * 252) / 1e6 / resumed.router.cpuCores) * 100)} %`;
    expect(md).toContain(`| edge:1k:close:resumed | wrk | 16 | 97 % | ${share} | yes |`);
    expect(html).toContain(
      ['edge:1k:close:resumed', 'wrk', '16', '97 %', share].map(htmlCell).join('') +
        '<td class="wrap">yes</td>',
    );
    // Counters: new sessions/s, connections and queue (median, max), TLS sessions/s, handshakes.
    expect(md).toContain('| edge:1k:close:resumed | 545 | 12 (max 16) | 0 (max 3) | 540 | 16 | 0 |');
    // A figure with its qualifier may break before the parenthesis, so that the table fits.
    const qualified = (figure, qualifier) => `<td class="spread">${figure} <span>(${qualifier})</span></td>`;
    expect(html).toContain(
      [
        htmlCell('edge:1k:close:resumed'),
        htmlCell('545'),
        qualified('12', 'max 16'),
        qualified('0', 'max 3'),
        ...['540', '16', '0'].map(htmlCell),
      ].join(''),
    );
    // A cell without counters has no counters row.
    expect(md).not.toMatch(/\| edge:1k:close:full \| \d+ \| \d+ \(max/);
  });

  test('router + network p50 is the p50 of its own distribution, never waiting p50 − service p50', () => {
    const r = results();
    const cell = r.cells[0];
    cell.decomposition.waitingMs = { ...cell.decomposition.waitingMs, p50: 5 };
    cell.decomposition.serviceMs = { ...cell.decomposition.serviceMs, p50: 1 };
    cell.decomposition.routerMs = { p50: 3.25 };
    r.cells[1].decomposition.routerMs = null;
    const { head, rows } = decompositionRows(r);
    expect(head[6]).toBe('router + network p50');
    expect(rows[0][6]).toBe('3.25');
    expect(rows[1][6]).toBe('–');
  });

  test('--no-report writes no report, and says how to render it later', () => {
    const lines = [];
    const log = (line) => lines.push(line);
    expect(finishRun({ opts: { report: false }, dir, results: results(), log })).toBeNull();
    expect(fs.existsSync(path.join(dir, 'report.md'))).toBe(false);
    expect(lines.join('\n')).toMatch(/not rendered \(--no-report\).*npm run report -- /);
    const files = finishRun({ opts: { report: true }, dir, results: results(), log });
    expect(fs.existsSync(files.md)).toBe(true);
  });
});
