'use strict';
/* global Image, document -- the pixel count runs inside Chromium */
// The report's HTML opens offline in headless Chromium: charts drawn, the screenshot not blank,
// no page wider than the window at 1200 or 700 px. The renderings themselves: report.unit.test.js.
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { ROOT } = require('../../lib/core/paths');
const { findTool } = require('../../lib/core/tools');
const { renderReport } = require('../../lib/report/index');
const { useTempDir } = require('../lab/helpers');

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'matrix-results', 'results.json');
const CHROMIUM = findTool('chromium') || '/usr/bin/chromium';

// The fixture with the router's samples spread (±10 %), so that the whiskers have something to draw.
function spreadFixture(dir) {
  const spread = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
  for (const cell of spread.cells) {
    const s = cell.cost.router.perRequestUs;
    Object.assign(s, { min: Number((s.median * 0.9).toFixed(1)), max: Number((s.median * 1.12).toFixed(1)) });
  }
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(spread));
}

/** Headless Chromium with a fresh profile (Playwright takes it as userDataDir, not a flag). */
function launch(profile) {
  return chromium.launchPersistentContext(profile, {
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
}

describe('report.html in headless Chromium', () => {
  const dir = useTempDir('report-test-');
  const requests = [];
  let page;
  let browser;
  let tab;
  beforeAll(async () => {
    spreadFixture(dir);
    const { html } = renderReport(dir);
    page = fs.readFileSync(html, 'utf8');
    browser = await launch(path.join(dir, 'chromium-profile'));
    tab = await browser.newPage();
    tab.on('request', (r) => requests.push(r.url()));
    await tab.goto(`file://${html}`);
  });
  afterAll(async () => {
    if (browser) await browser.close();
  });

  test('it is self-contained: no script, nothing fetched from the network', () => {
    expect(page).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
  });

  test('it draws every chart, the cost charts with whiskers and the handshake floor', async () => {
    const charts = await tab.$$eval('svg.chart', (svgs) =>
      svgs.map((svg) => {
        const box = svg.getBoundingClientRect();
        const bars = [...svg.querySelectorAll('rect[fill^="#"]')].filter((r) => r.getBBox().width > 1);
        return { width: box.width, height: box.height, bars: bars.length };
      }),
    );
    // Router µs per request (keep-alive, close) + rps + latency + one ratio chart per comparison
    // group (1 kB keep-alive, 4 kB keep-alive, 1 kB close).
    expect(charts.length).toBeGreaterThanOrEqual(7);
    for (const chart of charts) {
      expect(chart.width).toBeGreaterThan(100);
      expect(chart.height).toBeGreaterThan(50);
      expect(chart.bars).toBeGreaterThan(3);
    }
    // The cost charts: one bar per cell at its median, a whisker where the samples spread, and
    // the handshake floor marked on the close chart.
    const costCharts = await tab.$$eval('svg.chart[aria-label^="Router CPU per request"]', (svgs) =>
      svgs.map((svg) => ({
        label: svg.getAttribute('aria-label'),
        bars: [...svg.querySelectorAll('rect[fill^="#"]')].filter((r) => r.getBBox().width > 10).length,
        whiskers: [...svg.querySelectorAll('g.whisker line')].filter((l) => l.getBBox().width > 1).length,
        marker: svg.querySelector('line.marker') !== null,
        text: svg.textContent,
      })),
    );
    expect(costCharts.map((c) => c.label)).toEqual([
      expect.stringMatching(/keep-alive cells/),
      expect.stringMatching(/close cells/),
    ]);
    expect(costCharts.map((c) => c.bars)).toEqual([8, 8]);
    expect(costCharts[0].whiskers).toBeGreaterThanOrEqual(8);
    expect(costCharts[0].text).toContain('36 (32–40) µs');
    expect(costCharts[1].marker).toBe(true);
    expect(costCharts[1].text).toContain('handshake floor 252 µs');
  });

  test("it leads with the router's cost and alerts to the generator", async () => {
    const lead = await tab.$eval('.lead', (n) => n.textContent);
    expect(lead).toMatch(/^The router spent 36 µs of CPU per request over http 1k keep-alive/);
    const alerts = await tab.$$eval('.alert', (nodes) => nodes.map((n) => n.textContent).join('\n'));
    expect(alerts).toMatch(/The load generator was the limit in \d+ of 16 cells/);
  });

  test("no table is wider than the page at 1200 px, and the router's table fits a narrow one", async () => {
    // No table is wider than the page.
    const overflowing = await tab.$$eval(
      '.scroll',
      (nodes) => nodes.filter((n) => n.scrollWidth > n.clientWidth + 1).length,
    );
    expect(overflowing).toBe(0);
    // On a narrow page the router's own table still fits, and the page never scrolls sideways (a
    // wide table scrolls in its own box). 700 px: the fixture predates the resumed cells, so its
    // table is narrower than a current run's, which fits at 800 px.
    await tab.setViewportSize({ width: 700, height: 1600 });
    const narrow = await tab.evaluate(() => {
      const box = document.querySelector('.lead .scroll');
      return { page: document.documentElement.scrollWidth, lead: box.scrollWidth - box.clientWidth };
    });
    expect(narrow).toEqual({ page: 700, lead: 0 });
    await tab.setViewportSize({ width: 1200, height: 1600 });
  });

  test('its screenshot is not blank', async () => {
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
  });
});
