'use strict';
// route-scale's pure parts: the HAProxy watch's summary, the verdicts, the options, the
// configuration manager's fallbacks from the router's log, and the report's tables; no lab needed.
const { addSample, summarizeWatch, watchHaproxyDuring } = require('../../lib/route-scale/haproxy-watch');
const { fallbacks } = require('../../lib/route-scale/endpoints');
const { COMMAND } = require('../../lib/route-scale/options');
const { withConfigManager, nextLabEnv } = require('../../lib/route-scale/run');
const model = require('../../lib/results-model/route-scale');
const { blocks } = require('../../lib/report/route-scale');

test('the watch counts a superseded HAProxy as old, with its lifetime once it is gone', () => {
  const seen = new Map();
  addSample(seen, [{ pid: 10, rssMb: 9 }], 0);
  addSample(
    seen,
    [
      { pid: 11, rssMb: 10 },
      { pid: 10, rssMb: 12 },
    ],
    100,
  );
  addSample(
    seen,
    [
      { pid: 11, rssMb: 10.5 },
      { pid: 10, rssMb: 12 },
    ],
    3100,
  );
  addSample(
    seen,
    [
      { pid: 12, rssMb: 11 },
      { pid: 11, rssMb: 10.5 },
    ],
    3200,
  );
  addSample(
    seen,
    [
      { pid: 12, rssMb: 11 },
      { pid: 11, rssMb: 10.5 },
    ],
    3300,
  );
  const summary = summarizeWatch({ seen, peak: { processes: 2, totalMb: 22.5 }, lastMs: 3300 });
  expect(summary).toEqual({
    servingMb: 11,
    old: [
      { pid: 10, peakMb: 12, gone: true, livedMs: 3000 },
      { pid: 11, peakMb: 10.5, gone: false, livedMs: null },
    ],
    oldStillRunning: 1,
    peakProcesses: 2,
    peakTotalMb: 22.5,
  });
});

test('an old HAProxy that drained between two samples, never seen beside its successor, counts as old', () => {
  const seen = new Map();
  addSample(seen, [{ pid: 20, rssMb: 9 }], 0);
  addSample(seen, [{ pid: 21, rssMb: 10 }], 100);
  const summary = summarizeWatch({ seen, peak: { processes: 1, totalMb: 10 }, lastMs: 100 });
  expect(summary.old).toEqual([{ pid: 20, peakMb: 9, gone: true, livedMs: 0 }]);
  expect(summary.servingMb).toBe(10);
});

const reloads = (over = {}) => ({
  renderMs: { min: 200, median: 247, max: 260 },
  reloadMs: { min: 400, median: 435, max: 500 },
  parseMs: 180,
  haproxy: { old: [{ pid: 1, peakMb: 50, gone: true, livedMs: 9800 }] },
  ...over,
});

test('a reload is bounded by its largest phase: the drain when hard-stop-after ended it', () => {
  const v = model.reloadBound(reloads(), { hardStopAfterS: 10 });
  expect(v).toMatchObject({ by: 'drain', phases: { render: 247, parse: 180, start: 255, drain: 9800 } });
  expect(v.reason).toMatch(/until hard-stop-after \(10 s\) stopped it/);
  // Of the reload's own work, the new process starting took longest.
  expect(v.work).toEqual({ by: 'start', ms: 255 });
});

test('without an old process that exited, the reload is bounded by its own work', () => {
  const v = model.reloadBound(reloads({ haproxy: { old: [] }, parseMs: 300 }), { hardStopAfterS: 10 });
  expect(v).toMatchObject({ by: 'parse', reason: 'HAProxy took 300 ms to parse the configuration' });
  expect(
    model.reloadBound({ renderMs: null, reloadMs: null, parseMs: null, haproxy: { old: [] } }, {}).by,
  ).toBe('unknown');
});

test('the host is busy only from evidence: a phase at 90 % or a matrix cell that said so', () => {
  const host = (busyFraction) => ({ busyFraction, cores: 2, routerCores: 0.4 });
  const entry = (fraction, cellBusy = false) => ({
    reloads: { host: host(fraction) },
    churn: { cases: [{ ratePerS: 10, host: host(0.2) }] },
    cost: { cells: [{ cell: 'http:1k:keepalive', hostBusy: cellBusy, limitReason: 'the host was busy' }] },
  });
  expect(model.hostBusyVerdict(entry(0.5))).toEqual({ busy: false, reasons: [] });
  expect(model.hostBusyVerdict(entry(0.95)).reasons[0]).toMatch(
    /^reloads: the host's 2 cores were 95 % busy/,
  );
  expect(model.hostBusyVerdict(entry(null, true)).reasons).toEqual(['http:1k:keepalive: the host was busy']);
});

test('churn passes only when no request failed while Routes changed (the baseline is not judged)', () => {
  const load = (failed) => ({
    termination: 'edge',
    requests: 600,
    failed,
    errorKinds: failed ? { 'HTTP 503': failed } : {},
  });
  const churn = (baselineFailed, churnFailed) => ({
    cases: [
      { ratePerS: 0, loads: [load(baselineFailed)] },
      { ratePerS: 10, loads: [load(churnFailed)] },
    ],
  });
  expect(model.churnVerdict(churn(3, 0))).toEqual({ pass: true, reasons: [] });
  expect(model.churnVerdict(churn(0, 2)).reasons).toEqual([
    '10 Route(s)/s: 2 of 600 requests through edge failed (2 HTTP 503)',
  ]);
});

test('--routes and --churn take ascending whole numbers within range, and name a bad one', () => {
  expect(COMMAND.parse(['--routes', '1000,4,100,4']).values.routes).toEqual([4, 100, 1000]);
  expect(COMMAND.parse(['--quick']).values).toMatchObject({ routes: [4, 300], churnRates: [5] });
  expect(() => COMMAND.parse(['--routes', '3'])).toThrow(
    /--routes: "3" is not a whole number from 4 to 10000/,
  );
  expect(() => COMMAND.parse(['--churn', '0'])).toThrow(/--churn: "0" is not a whole number from 1 to 50/);
});

test('--next-lab beside: the next count starts on free ports in a folder of LAB_DIR; after, or the last count: none', () => {
  const env = { LAB_DIR: '/tmp/lab', LAB_HTTP_PORT: '9080', LAB_REDIS_PORT: '6379' };
  const quick = COMMAND.parse(['--quick']).values;
  expect(quick.nextLab).toBe('beside');
  expect(nextLabEnv(env, quick, 4)).toMatchObject({
    LAB_DIR: '/tmp/lab/route-scale-300',
    LAB_ROUTES: '300',
    LAB_ROUTER: 'openshift',
    LAB_HTTP_PORT: '0',
    LAB_HTTPS_PORT: '0',
    LAB_STATS_PORT: '0',
    LAB_SERVICE_BASE_PORT: '0',
    LAB_REDIS_PORT: '0',
  });
  expect(nextLabEnv(env, quick, 300)).toBeNull();
  expect(nextLabEnv(env, COMMAND.parse([]).values, 4)).toBeNull();
  expect(() => COMMAND.parse(['--next-lab', 'before'])).toThrow(/--next-lab.*after, beside/);
});

test('--dcm says which counts get the second lab, with the configuration manager on', () => {
  const at = (args) => {
    const opts = COMMAND.parse(args).values;
    return opts.routes.filter((n) => withConfigManager(opts, n));
  };
  expect(at(['--routes', '4,100'])).toEqual([4, 100]);
  expect(at(['--quick'])).toEqual([4]);
  expect(at(['--routes', '100,4', '--dcm', 'smallest'])).toEqual([4]);
  expect(at(['--quick', '--dcm', 'every'])).toEqual([4, 300]);
  expect(at(['--dcm', 'none'])).toEqual([]);
  expect(() => COMMAND.parse(['--dcm', 'some'])).toThrow(/--dcm.*every, smallest, none/);
});

test("the configuration manager's fallbacks to a reload are read from the router's log", () => {
  const log = [
    'I1126 18:55:22.4 backend.go:364] "msg"="disabling backend server instead of deleting"',
    'I1126 18:55:22.6 router.go:993] "msg"="router will reload as the ConfigManager could not dynamically replace endpoints for service" "error"="error adding backend server x: cannot be removed" "service"="a"',
  ].join('\n');
  expect(fallbacks(log)).toEqual({
    fallbacks: 1,
    fallbackReason: 'error adding backend server x: cannot be removed',
  });
  expect(fallbacks('')).toEqual({ fallbacks: 0, fallbackReason: null });
});

test('the report lays every count out: reloads, cost, churn against no churn, endpoints off and on', () => {
  const doc = model.createDocument({ runId: 'r1', opts: { rate: 100, hardStopAfterS: 10 }, router: null });
  const loads = (p99) => [{ termination: 'http', requests: 100, failed: 0, errorKinds: {}, p99 }];
  const endpoints = (reloadCount) => ({
    changes: 3,
    reloads: reloadCount,
    removedMs: { median: 12 },
    addedMs: { median: 70 },
    requests: 30,
    failed: 0,
    fallbacks: 0,
    notApplied: [],
  });
  model.addCount(doc, {
    routes: 1000,
    admission: { admitted: { p50: 30 }, firstOk: { p50: 4800, max: 5100 } },
    reloads: {
      ...reloads(),
      changeToServingMs: { median: 600, max: 700 },
      haproxy: { ...reloads().haproxy, servingMb: 51, peakTotalMb: 105, oldStillRunning: 0 },
      host: null,
    },
    cost: {
      cells: [{ cell: 'http:1k:keepalive', routerUs: { median: 108 }, limitedBy: 'shared', hostBusy: false }],
    },
    churn: {
      cases: [
        { ratePerS: 0, reloads: 0, reloadsPerSec: 0, loads: loads(2), haproxy: { peakProcesses: 1 } },
        { ratePerS: 10, reloads: 4, reloadsPerSec: 0.2, loads: loads(5), haproxy: { peakProcesses: 3 } },
      ],
    },
    endpoints: {
      off: { configManager: false, rollout: endpoints(3), readiness: endpoints(3) },
      on: {
        configManager: true,
        rollout: endpoints(0),
        readiness: {
          ...endpoints(1),
          fallbacks: 1,
          fallbackReason: 'cannot be removed',
          notApplied: [{ change: 3, error: 'data-service-2 withdrawn did not happen within 25000 ms' }],
        },
      },
    },
  });
  model.finish(doc, { complete: true });
  const tables = blocks(doc)
    .filter((b) => b.table)
    .map((b) => b.table.rows);
  const [reloadRows, scaleRows, churnRows, endpointRows] = tables;
  expect(reloadRows[0]).toEqual(expect.arrayContaining(['1000', '247 ms (max 260 ms)', '180 ms', '51 MB']));
  expect(reloadRows[0][8]).toMatch(/^drain: .*; of the reload's own work, start \(255 ms\)$/);
  expect(scaleRows[0]).toEqual(['1000', '30 ms / 4800 ms', '5100 ms', '108 µs (shared)', '–', 'not busy']);
  expect(churnRows.map((r) => r[4])).toEqual(['http 2 ms', 'http 5 ms (×2.50)']);
  // A change the router never applied, and one left to a reload, are said in the row.
  expect(endpointRows[3][6]).toBe(
    '0 of 30; change 3 not applied: data-service-2 withdrawn did not happen within 25000 ms',
  );
  expect(endpointRows.map((r) => r.slice(1, 4))).toEqual([
    ['off', 'new pod', '3 for 3 change(s)'],
    ['off', 'same pod', '3 for 3 change(s)'],
    ['on', 'new pod', '0 for 3 change(s)'],
    ['on', 'same pod', '1 for 3 change(s); 1 left to a reload: cannot be removed'],
  ]);
  expect(blocks(doc)[0].heading).toBe('Route scale r1: no request lost to churn');
});

test('route-scale.json is checked against its schema: written, read back, and a bad one refused by path', () => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const fixture = JSON.parse(
    fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'route-scale.json'), 'utf8'),
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-scale-doc-'));
  try {
    model.writeDocument(dir, fixture);
    expect(model.readDocument(dir)).toEqual(fixture);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  expect(() => model.checkDocument({ ...fixture, version: 1 }, 'x.json')).toThrow(
    'x.json is route-scale version 1; this code reads 2',
  );
  const bad = structuredClone(fixture);
  delete bad.counts[1].reloads.haproxy.old[0].livedMs;
  expect(() => model.checkDocument(bad, 'x.json')).toThrow(
    "x.json does not match lib/results-model/route-scale.schema.json: /counts/1/reloads/haproxy/old/0 must have required property 'livedMs'",
  );
});

test('the HAProxy watch stops however the work it watches ends', async () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  await expect(
    watchHaproxyDuring(process.pid, async () => {
      throw new Error('interrupted');
    }),
  ).rejects.toThrow('interrupted');
  expect(timers()).toBe(before);
  const { result, haproxy } = await watchHaproxyDuring(process.pid, async () => 'done');
  expect({ result, oldStillRunning: haproxy.oldStillRunning }).toEqual({
    result: 'done',
    oldStillRunning: 0,
  });
  expect(timers()).toBe(before);
});
