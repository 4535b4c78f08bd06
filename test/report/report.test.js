'use strict';
/* global Image, document -- the pixel count runs inside Chromium */
// The report renders from a fixed results.json (a real default run with --cross-check on a 2-core
// machine, kept in test/fixtures), and its HTML opens offline in headless Chromium with the
// charts drawn and a screenshot that is not blank.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { chromium } = require('playwright-core');
const { ROOT } = require('../../lib/core/paths');
const { findTool } = require('../../lib/core/tools');
const { renderReport } = require('../../lib/report/index');
const { comparisonGroups } = require('../../lib/report/compare');

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'matrix-results', 'results.json');
const CHROMIUM = findTool('chromium') || '/usr/bin/chromium';

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
    expect(text).toMatch(/## Cross-check: k6 vs wrk/);
    expect(text).toContain('4 vCPU / 16 GB public cloud instance, one HAProxy, 100 routes, HTTP keep-alive');
    // edge ÷ http in Red Hat's 3.x 1 kB keep-alive column: 7467 / 15435.
    expect(text).toMatch(/\| edge \| [^|]+ \| [\d.–]+ \| 0\.48 \|/);
  });

  test('reference ratios are computed against the http row of the same run and the same column', () => {
    const results = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
    const group = comparisonGroups(results).find((g) => g.pageSize === 1024 && g.connection === 'close');
    const http = results.cells.find((c) => c.name === 'http:1k:close');
    const edge = group.rows.find((r) => r.termination === 'edge');
    expect(edge.run.ratio).toBeCloseTo(
      results.cells.find((c) => c.name === 'edge:1k:close').rps / http.rps,
      6,
    );
    const ocp4 = edge.refs.find((r) => r.key === 'close-hostnet');
    expect(ocp4.ratio).toBeCloseTo(4069 / 8273, 6);
    expect(ocp4.normalisedRps).toBeCloseTo(http.rps * (4069 / 8273), 6);
  });

  test('bad input is refused with the file named', () => {
    fs.writeFileSync(path.join(dir, 'results.json'), '{"id": 1');
    expect(() => renderReport(dir)).toThrow(/results\.json is not valid JSON/);
    const cli = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'report.js'), path.join(dir, 'nope')], {
      encoding: 'utf8',
    });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toMatch(/nope.results\.json does not exist/);
  });

  test('report.html is self-contained and draws its charts in headless Chromium', async () => {
    const { html } = renderReport(dir);
    const page = fs.readFileSync(html, 'utf8');
    expect(page).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'report-chromium-'));
    let browser;
    try {
      // A fresh profile per run; Playwright takes it as userDataDir rather than --user-data-dir.
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        viewport: { width: 1200, height: 1600 },
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      const tab = await browser.newPage();
      const requests = [];
      tab.on('request', (r) => requests.push(r.url()));
      await tab.goto(`file://${html}`);
      const charts = await tab.$$eval('svg.chart', (svgs) =>
        svgs.map((svg) => {
          const box = svg.getBoundingClientRect();
          const bars = [...svg.querySelectorAll('rect[fill^="#"]')].filter((r) => r.getBBox().width > 1);
          return { width: box.width, height: box.height, bars: bars.length };
        }),
      );
      // rps + latency + one ratio chart per comparison group (1 kB keep-alive, 4 kB keep-alive, 1 kB close).
      expect(charts.length).toBeGreaterThanOrEqual(5);
      for (const chart of charts) {
        expect(chart.width).toBeGreaterThan(100);
        expect(chart.height).toBeGreaterThan(50);
        expect(chart.bars).toBeGreaterThan(3);
      }
      const alerts = await tab.$$eval('.alert', (nodes) => nodes.map((n) => n.textContent).join('\n'));
      expect(alerts).toMatch(/The load generator was the limit in \d+ of 16 cells/);
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);

      const png = await tab.screenshot({ fullPage: false });
      if (process.env.REPORT_SCREENSHOT) fs.writeFileSync(process.env.REPORT_SCREENSHOT, png);
      const colours = await tab.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const data = ctx.getImageData(0, 0, img.width, img.height).data;
        const seen = new Set();
        for (let i = 0; i < data.length; i += 4) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        return seen.size;
      }, png.toString('base64'));
      expect(colours).toBeGreaterThan(20);
    } finally {
      if (browser) await browser.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });
});

describe('report figures', () => {
  const { cellRows, decompositionRows } = require('../../lib/report/tables');
  const { finishRun } = require('../../lib/matrix/finish');
  const results = () => JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));

  test('the headline is successful requests per second', () => {
    const r = results();
    const [first, second] = r.cells;
    first.okRps = first.rps - 100;
    const { head, rows } = cellRows(r);
    expect(head[1]).toBe('ok req/s');
    expect(head[7]).toBe('TLS ms per handshake');
    expect(rows[0][1]).toBe(String(Math.round(first.rps - 100)));
    expect(rows[1][1]).toBe(String(Math.round(second.okRps)));
    const group = comparisonGroups(r).find((g) =>
      g.rows.some((row) => row.run && row.run.rps === first.okRps),
    );
    expect(group).toBeDefined();
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
