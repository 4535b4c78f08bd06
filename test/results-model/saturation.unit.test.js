'use strict';
const {
  generatorVerdict,
  backendVerdict,
  hostVerdict,
  withCrossCheck,
} = require('../../lib/results-model/verdicts');
const { buildCellResult } = require('../../lib/results-model/cell');
const { finalize } = require('../../lib/results-model/document');
const REFERENCE = require('../../k6/lib/reference.json');

/** The cells as a finished run decides them (limitedBy), for the model's executor. */
function finalized(cells, executor = 'constant-vus') {
  return finalize({ options: { executor, vus: 32 }, cells, reference: REFERENCE }, { complete: true }).cells;
}

const reasonsOf = (cell, role) => cell.limitedBy.reasons.filter((r) => r.role === role).map((r) => r.text);

describe('load generator saturation', () => {
  const easy = {
    cpuCores: 0.3,
    allowedCores: 2,
    hostBusyFraction: 0.4,
    hostCores: 2,
    droppedIterations: 0,
    executor: 'constant-vus',
    vusMax: 32,
    maxVus: 32,
  };

  test('an easy cell is not flagged', () => {
    expect(generatorVerdict(easy)).toEqual({ saturated: false, reasons: [] });
  });

  test('k6 near the cores it may use', () => {
    const v = generatorVerdict({ ...easy, cpuCores: 1.8, hostBusyFraction: 0.95 });
    expect(v.saturated).toBe(true);
    expect(v.reasons[0]).toMatch(/k6 used 1\.80 of the 2 cores/);
  });

  test('a full host where k6 has cores left is not the generator at its limit (the roles share the host)', () => {
    // k6 at 1.1 of its 2 cores on a full host: a share, not its own limit (see limitOf: shared).
    expect(generatorVerdict({ ...easy, cpuCores: 1.1, hostBusyFraction: 0.99 }).saturated).toBe(false);
    expect(generatorVerdict({ ...easy, cpuCores: 0.3, hostBusyFraction: 0.99 }).saturated).toBe(false);
  });

  test('dropped iterations and exhausted VUs in the open model', () => {
    const v = generatorVerdict({
      ...easy,
      executor: 'constant-arrival-rate',
      droppedIterations: 120,
      vusActiveMax: 500,
      maxVus: 500,
    });
    expect(v.reasons).toEqual([
      expect.stringMatching(/120 iterations dropped/),
      expect.stringMatching(/all 500 VUs were in use/),
    ]);
  });

  test('all VUs active is not exhaustion by itself: preallocated VUs are all active from the start', () => {
    const open = { ...easy, executor: 'constant-arrival-rate', vusActiveMax: 32, maxVus: 32, busyVus: 0.4 };
    expect(generatorVerdict(open)).toEqual({ saturated: false, reasons: [] });
    // ...but nearly every VU busy waiting for responses is, even before iterations are dropped.
    const busy = generatorVerdict({ ...open, busyVus: 31.2 });
    expect(busy.saturated).toBe(true);
    expect(busy.reasons[0]).toMatch(/on average 31\.2 of the 32 VUs were busy/);
  });

  test('the wrk cross-check marks k6 as the limit only when wrk got clearly more', () => {
    const base = { saturated: false, reasons: [] };
    expect(withCrossCheck(base, { rps: 20000, gap: 0.5, flagged: true }).reasons[0]).toMatch(/wrk got 20000/);
    expect(withCrossCheck(base, { rps: 10500, gap: 0.05, flagged: false }).saturated).toBe(false);
    expect(withCrossCheck(base, { rps: 8000, gap: -0.25, flagged: true }).saturated).toBe(false);
    expect(withCrossCheck(base, { skipped: 'passthrough' })).toBe(base);
  });

  test('wrk against k6 is worded as a multiple of k6’s rate and k6’s shortfall, from real figures', () => {
    const base = { saturated: false, reasons: [] };
    // A real 2-core run: k6 8,900 req/s, wrk 25,888 (compareTools: gap = (wrk − k6) ÷ wrk).
    const issue = {
      rps: 25888,
      generatorRps: 8900,
      gap: Number(((25888 - 8900) / 25888).toFixed(3)),
      flagged: true,
    };
    expect(withCrossCheck(base, issue).reasons[0]).toBe(
      "wrk got 25888 req/s through the same cell, 2.9× k6's 8900 (k6 fell 66 % short of wrk)",
    );
    // http:1k:keepalive of test/fixtures/matrix-results: k6 3329.7, wrk 7425.78, gap 0.552.
    expect(
      withCrossCheck(base, { rps: 7425.78, generatorRps: 3329.7, gap: 0.552, flagged: true }).reasons[0],
    ).toBe("wrk got 7426 req/s through the same cell, 2.2× k6's 3330 (k6 fell 55 % short of wrk)");
    // A cross-check recorded without k6's rate: k6's is what the gap leaves of wrk's.
    expect(withCrossCheck(base, { rps: 2000, gap: 0.5, flagged: true }).reasons[0]).toBe(
      "wrk got 2000 req/s through the same cell, 2.0× k6's 1000 (k6 fell 50 % short of wrk)",
    );
    // A resumed close cell, driven by wrk and cross-checked by haload: each named.
    const resumed = { tool: 'haload', rps: 3000, generatorRps: 2000, gap: 0.333, flagged: true };
    expect(withCrossCheck(base, resumed, 'wrk').reasons[0]).toBe(
      "haload got 3000 req/s through the same cell, 1.5× wrk's 2000 (wrk fell 33 % short of haload)",
    );
  });
});

describe('backend saturation', () => {
  test('an instance near one core', () => {
    const v = backendVerdict({ instances: [{ name: 'data-service-1', cpuCores: 0.97 }] });
    expect(v.saturated).toBe(true);
    expect(v.reasons[0]).toMatch(/data-service-1 used 0\.97 core/);
  });

  test('service time rising against the lightest cell, with a floor against noise', () => {
    expect(backendVerdict({ instances: [], serviceP50Ms: 1.2, baselineServiceP50Ms: 0.1 }).saturated).toBe(
      true,
    );
    // Doubling from 0.01 to 0.03 ms is noise, not a saturated service.
    expect(backendVerdict({ instances: [], serviceP50Ms: 0.03, baselineServiceP50Ms: 0.01 }).saturated).toBe(
      false,
    );
    expect(
      backendVerdict({
        instances: [{ name: 'a', cpuCores: 0.3 }],
        serviceP50Ms: 0.1,
        baselineServiceP50Ms: 0.1,
      }),
    ).toEqual({
      saturated: false,
      reasons: [],
    });
  });
});

describe('host contention', () => {
  test('other work on a busy host is called out', () => {
    const v = hostVerdict({ hostBusyFraction: 1, hostCores: 2, labCpuCores: 0.8 });
    expect(v.contended).toBe(true);
    expect(v.otherCpuCores).toBeCloseTo(1.2);
    expect(hostVerdict({ hostBusyFraction: 1, hostCores: 2, labCpuCores: 1.9 }).contended).toBe(false);
    expect(hostVerdict({ hostBusyFraction: 0.5, hostCores: 2, labCpuCores: 0.1 }).contended).toBe(false);
  });
});

describe('a cell result from raw samples', () => {
  function sample({ rps, seconds = 2, k6Cores, serviceP50, failed = 0, status0 = 0 }) {
    const count = Math.round(rps * seconds);
    const trend = (v) => ({
      count,
      avg: v,
      min: v / 2,
      max: v * 4,
      med: v,
      'p(50)': v,
      'p(90)': v * 2,
      'p(99)': v * 3,
    });
    return {
      allowedCores: 2,
      cpu: {
        cores: { k6: k6Cores, router: 0.5, 'data-service-1': 0.2 },
        hostBusyFraction: 0.5,
        hostCores: 2,
      },
      summary: {
        state: { testRunDurationMs: seconds * 1000 },
        metrics: {
          http_reqs: { values: { count, rate: rps } },
          http_req_failed: { values: { rate: failed / count, passes: failed, fails: count - failed } },
          request_total: { values: trend(2) },
          'http_req_duration{expected_response:true}': { values: trend(1.5) },
          service_time: { values: trend(serviceP50) },
          errors_status_0: { values: { count: status0 } },
          errors_status_502: { values: { count: 0 } },
          vus_max: { values: { max: 32 } },
        },
      },
    };
  }

  test('rates, errors by status and verdicts', () => {
    const cell = { name: 'edge:1k:keepalive', termination: 'edge', pageSize: 1024, connection: 'keepalive' };
    const result = buildCellResult(
      cell,
      [sample({ rps: 1000, k6Cores: 1.9, serviceP50: 0.1, failed: 4, status0: 4 })],
      {
        instanceNames: ['data-service-1'],
        maxVus: 32,
      },
    );
    expect(result.rps).toBe(1000);
    expect(result.errorRate).toBeCloseTo(0.002);
    expect(result.errors).toEqual({ 0: 4 });
    expect(result.p50).toBeCloseTo(2, 1);
    // Figures only: the verdict is the finished run's.
    expect(result).not.toHaveProperty('limitedBy');

    const heavy = buildCellResult(
      { ...cell, name: 'edge:4k:close' },
      [sample({ rps: 300, k6Cores: 0.2, serviceP50: 1.5 })],
      {
        instanceNames: ['data-service-1'],
      },
    );
    const [light, loaded] = finalized([result, heavy]);
    expect(light.limitedBy.by).toBe('generator');
    expect(reasonsOf(light, 'backend')).toEqual([]);
    expect(loaded.limitedBy.by).toBe('backend');
    expect(reasonsOf(loaded, 'backend')[0]).toMatch(/lightest cell \(edge:1k:keepalive\)/);
    expect(reasonsOf(loaded, 'generator')).toEqual([]);
  });
});

describe('a cell result in the open model and from the script’s own counters', () => {
  const { parseMatrixArgs } = require('../../lib/matrix/options');
  const { loadModel } = require('../../lib/matrix/options');
  const { vusExhausted, defaultMaxVus } = require('../../k6/lib/generator');
  const cell = { name: 'http:1k:keepalive', termination: 'http', pageSize: 1024, connection: 'keepalive' };
  const trend = (v, count) => ({ count, avg: v, min: v / 2, max: v * 4, med: v, 'p(50)': v, 'p(99)': v * 3 });

  /** One sample of an easy open-model cell as k6 summarises it: 200 req/s, 2 ms each. */
  function openSample({ rate = 200, seconds = 10, vus = 32, dropped = 0, metrics = {} } = {}) {
    const count = rate * seconds;
    return {
      allowedCores: 2,
      cpu: { cores: { k6: 0.1, router: 0.05 }, hostBusyFraction: 0.2, hostCores: 2 },
      summary: {
        state: { testRunDurationMs: seconds * 1000 },
        metrics: {
          http_reqs: { values: { count, rate } },
          iterations: { values: { count, rate } },
          iteration_duration: { values: trend(2, count) },
          request_total: { values: trend(2, count) },
          vus: { values: { value: vus, min: vus, max: vus } },
          vus_max: { values: { value: vus, min: vus, max: vus } },
          dropped_iterations: { values: { count: dropped } },
          ...metrics,
        },
      },
    };
  }

  test('--rate 200 with the default 32 VUs is not generator-saturated', () => {
    const opts = parseMatrixArgs(['--rate', '200']);
    const model = loadModel(opts);
    expect(model).toEqual({ executor: 'constant-arrival-rate', maxVus: 32 });
    const result = buildCellResult(cell, [openSample()], { ...model });
    expect(result.generator).toMatchObject({ vusMax: 32, maxVus: 32 });
    expect(result.generator.busyVus).toBeCloseTo(0.4, 1);
    const [easy, short] = finalized(
      [result, buildCellResult(cell, [openSample({ dropped: 50 })], { ...model })],
      model.executor,
    );
    expect(reasonsOf(easy, 'generator')).toEqual([]);
    // With drops while every VU was in use, it is.
    expect(short.limitedBy.by).toBe('generator');
    expect(reasonsOf(short, 'generator')).toEqual([
      expect.stringMatching(/50 iterations dropped/),
      expect.stringMatching(/all 32 VUs were in use/),
    ]);
  });

  test('the VU budget: one formula for k6 and the runner, exhaustion only when it shows', () => {
    expect(defaultMaxVus(32, 200)).toBe(32);
    expect(defaultMaxVus(32, 5000)).toBe(500);
    expect(defaultMaxVus(32, 0)).toBe(32);
    expect(vusExhausted({ droppedIterations: 0, vusActiveMax: 250, maxVus: 250 })).toBe(false);
    expect(vusExhausted({ droppedIterations: 3, vusActiveMax: 250, maxVus: 250 })).toBe(true);
    expect(vusExhausted({ droppedIterations: 3, vusActiveMax: 100, maxVus: 250 })).toBe(false);
    expect(vusExhausted({ droppedIterations: 0, vusActiveMax: 250, maxVus: 250, busyVus: 240 })).toBe(true);
  });

  test('errorRate counts every non-200 (3xx and status 0 included) and wrong sizes; okRps leaves them out', () => {
    const result = buildCellResult(
      cell,
      [
        openSample({
          metrics: {
            // k6's own verdict, which calls a 302 a success: not used for errorRate.
            http_req_failed: { values: { rate: 0.0005, passes: 1, fails: 1999 } },
            errors_status_0: { values: { count: 1 } },
            errors_status_302: { values: { count: 10 } },
            errors_status_other: { values: { count: 0 } },
            errors_wrong_size: { values: { count: 9 } },
          },
        }),
      ],
      { maxVus: 32 },
    );
    expect(result.errors).toEqual({ 0: 1, 302: 10, wrongSize: 9 });
    expect(result.errorRate).toBeCloseTo(20 / 2000, 6);
    expect(result.rps).toBe(200);
    expect(result.okRps).toBe(198);
  });

  test('TLS handshake time is per handshake, and router time is its own distribution', () => {
    const result = buildCellResult(
      cell,
      [
        openSample({
          metrics: {
            // k6's trend over all requests: 32 handshakes of 4 ms diluted by 1968 reused connections.
            'http_req_tls_handshaking{expected_response:true}': { values: trend(0.064, 2000) },
            tls_handshake: { values: trend(4, 32) },
            'http_req_waiting{expected_response:true}': { values: trend(1.5, 2000) },
            service_time: { values: trend(1, 2000) },
            router_time: { values: trend(0.3, 2000) },
          },
        }),
      ],
      { maxVus: 32 },
    );
    expect(result.tlsHandshakeMs).toBe(4);
    expect(result.tlsHandshakes).toBe(32);
    expect(result.decomposition.routerMs.p50).toBeCloseTo(0.3, 2);
    const plain = buildCellResult(cell, [openSample()], { executor: 'constant-vus', maxVus: 32 });
    expect(plain.tlsHandshakeMs).toBeNull();
    expect(plain.tlsHandshakes).toBe(0);
  });
});
