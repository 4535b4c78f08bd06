'use strict';
// Each guide page's lesson, asserted from what its commands wrote (test/guide/pages.js runs them).
// A page without an entry must still run without a failing command.
const fs = require('node:fs');
const path = require('node:path');
const { netnsSupport } = require('../../lib/core/netns');

const cell = (results, name) => {
  const found = results.cells.find((c) => c.name === name);
  if (!found) throw new Error(`${results.id}: no cell ${name} (has ${results.cells.map((c) => c.name)})`);
  return found;
};
const routerUs = (c) => c.cost.router.perRequestUs.median;
const command = (run, pattern, nth = 0) => {
  const found = run.filter((c) => pattern.test(c.text))[nth];
  if (!found) throw new Error(`no command ${pattern} (number ${nth + 1}) in this page`);
  return found;
};

/** A compare line with its change, its interval and a verdict. */
const COMPARE_LINE = / % … [-+]?\d+\.\d % +(better|worse|no difference detectable) +\d+$/;

/** release-4.22's router on its own 2.8, then on 3.2: the release chose, and only the binary changed. */
function haproxyVersionsHold(run) {
  const status = command(run, /npm run lab:status/);
  expect(status.stdout).toMatch(/haproxy {2}2\.8\.10 \(release-4\.22's 2\.8: /);
  const versions = command(run, /npm run compare -- results\/haproxy-2\.8 results\/haproxy-3\.2$/);
  expect(versions.stdout).toMatch(/^- HAProxy: A 2\.8\.10-\S+, B 3\.2\.\d+-\S+$/m);
  expect(versions.stdout).not.toMatch(
    /^- (router|router threads|router key|OpenShift release[^:]*|SNI hop):/m,
  );
  const lines = versions.stdout.split('\n').filter((l) => /^(edge|reencrypt):1k:keepalive /.test(l));
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line).toMatch(COMPARE_LINE);
  }
}

/**
 * Each page's lesson, from what its commands wrote. `mayFail`: commands whose non-zero exit is
 * part of the lesson. Pages without an entry must still run without a failing command.
 */
const LESSONS = {
  'exercise-termination-cost.md': {
    check: ({ run, lab }) => {
      // Where TLS ends, as the service sees it: plain HTTP behind http and edge, TLS behind
      // re-encrypt (the router's session) and passthrough (the client's).
      const seen = (route) => JSON.parse(command(run, new RegExp(`curl .*data-service-${route}-`)).stdout);
      const http = seen('http');
      const edge = seen('edge');
      const reencrypt = seen('reencrypt');
      const passthrough = seen('passthrough');
      expect([http.tls, edge.tls, reencrypt.tls, passthrough.tls]).toEqual([false, false, true, true]);
      expect(edge.forwarded['x-forwarded-proto']).toBe('https');
      expect(reencrypt.tlsServername).toBe(null);
      expect(passthrough.tlsServername).toMatch(/^data-service-passthrough-router-lab\./);
      expect(passthrough.forwarded).toEqual({});
      const r = lab.results('termination-cost');
      // TLS at the router (and its internal hop) costs more of the router's CPU than plain HTTP.
      expect(routerUs(cell(r, 'edge:1k:keepalive'))).toBeGreaterThan(routerUs(cell(r, 'http:1k:keepalive')));
    },
  },
  'exercise-keepalive-vs-close.md': {
    check: ({ lab }) => {
      const r = lab.results('keepalive-vs-close');
      for (const [keep, close] of [['edge:1k:keepalive', 'edge:1k:close:full']]) {
        const k = cell(r, keep);
        const c = cell(r, close);
        expect({ close, fewerOkRps: c.okRps < k.okRps, moreRouterUs: routerUs(c) > routerUs(k) }).toEqual({
          close,
          fewerOkRps: true,
          moreRouterUs: true,
        });
      }
    },
  },
  'exercise-load-generator.md': {
    check: ({ lab }) => {
      const c = cell(lab.results('generator'), 'http:1k:keepalive');
      expect(c.limitedBy.by.split('+')).toContain('generator');
      expect(c.crossCheck.rps).toBeGreaterThan(c.crossCheck.generatorRps);
      // Passthrough, which wrk cannot reach, is cross-checked by haload (its own SNI), all 2xx.
      const p = cell(lab.results('generator'), 'passthrough:1k:keepalive').crossCheck;
      expect({ tool: p.tool, errors: p.errors, non2xx: p.non2xx }).toEqual({
        tool: 'haload',
        errors: 0,
        non2xx: 0,
      });
      expect(p.rps).toBeGreaterThan(0);
      // Each second generator costs a fraction of k6's CPU per request, and the router was measured
      // under it too: what the report's efficiency table sets side by side.
      const { generatorEfficiency } = require('../../lib/results-model/generator-efficiency');
      for (const name of ['http:1k:keepalive', 'passthrough:1k:keepalive']) {
        const [own, other] = generatorEfficiency(cell(lab.results('generator'), name)).generators;
        expect({ name, own: own.tool, other: other.tool }).toEqual({
          name,
          own: 'k6',
          other: name.startsWith('http') ? 'wrk' : 'haload',
        });
        expect(other.ownUs.median * 3).toBeLessThan(own.ownUs.median);
        expect(other.routerUs.median).toBeGreaterThan(0);
        expect(other.shift).not.toBeNull();
      }
    },
  },
  'exercise-latency-decomposition.md': {
    check: ({ lab }) => {
      const r = lab.results('latency');
      for (const c of r.cells) {
        // The service's own time is a small part of what the client lived through.
        expect({ cell: c.name, farBelow: c.serviceTimeMs.p50 * 5 < c.p50 }).toEqual({
          cell: c.name,
          farBelow: true,
        });
      }
      // Fewer VUs queue less: end to end falls towards the service time.
      const few = cell(lab.results('latency-vus4'), 'http:1k:keepalive');
      expect(few.p50).toBeLessThan(cell(r, 'http:1k:keepalive').p50);
    },
  },
  'exercise-maxconn.md': {
    check: ({ lab }) => {
      const under = cell(lab.results('maxconn-under'), 'http:1k:close');
      const over = cell(lab.results('maxconn-over'), 'http:1k:close');
      expect(lab.state.router.maxconn).toBe(50);
      // 200 clients, room for 50: the router never held more, nobody got an error, they queued.
      expect(over.router.counters.currentConnections.max).toBeLessThanOrEqual(50);
      expect({ under: under.errorRate, over: over.errorRate }).toEqual({ under: 0, over: 0 });
      expect(over.p50).toBeGreaterThan(under.p50);
      const log = fs.readFileSync(path.join(lab.labDir, 'logs', 'router.log'), 'utf8');
      expect(log.split('\n').filter((l) => /alert|error|emerg/i.test(l))).toEqual([]);
    },
  },
  'exercise-ephemeral-ports.md': {
    check: ({ run, lab }) => {
      const timeWait = Number(command(run, /^ss -tan state time-wait/).stdout.trim());
      expect(timeWait).toBeGreaterThan(500);
      const doc = JSON.parse(fs.readFileSync(path.join(lab.resultsDir, 'ports', 'reliability.json'), 'utf8'));
      const [scenario] = doc.scenarios;
      expect(scenario.verdict.pass).toBe(true);
      const runOut = scenario.cases.find((c) => c.name.startsWith('ephemeral ports run out'));
      if (netnsSupport().ok) {
        // The client's kernel refused the connections; the router never saw them.
        expect(runOut.figures.exhausted).toBe(true);
        expect(runOut.load.clientErrors[0]).toMatch(/cannot assign requested address/);
        expect(runOut.figures.router.acceptedConnections).toBeLessThan(runOut.load.requests / 2);
      } else {
        expect(scenario.verdict.notes[0]).toMatch(/not reproduced here \(needs root/);
      }
    },
  },
  'exercise-passthrough-balance.md': {
    check: ({ run }) => {
      const instances = (nth) =>
        command(run, /^for i in/, nth)
          .stdout.trim()
          .split('\n')
          .filter(Boolean);
      const source = instances(0);
      const random = instances(1);
      expect(source).toHaveLength(10);
      expect(new Set(source).size).toBe(1); // one client IP: one instance
      expect(new Set(random).size).toBeGreaterThan(1); // 10 draws from 3: all alike ~ 1 in 20000
    },
  },
  'exercise-rolling-restart.md': {
    check: ({ lab }) => {
      const c = cell(lab.results('rollout'), 'edge:1k:keepalive');
      expect({ errorRate: c.errorRate, errors: c.errors }).toEqual({ errorRate: 0, errors: {} });
      expect(c.requests).toBeGreaterThan(0);
    },
  },
  'exercise-bank-workload.md': {
    // On a small shared machine k6 drops iterations (at 5000 TPS always, at 1000 often): its
    // thresholds fail, exit 99. That is the lesson, not a fault.
    mayFail: [/k6 run .*k6\/data-service\.js/],
    check: ({ lab }) => {
      const summary = JSON.parse(fs.readFileSync(path.join(lab.resultsDir, 'bank-5000.json'), 'utf8'));
      const med = (name) => summary.metrics[name].values.med;
      expect(med('service_time') * 5).toBeLessThan(med('http_req_duration'));
      // haload held to the bank's 5,000/s through the router: met, or the role that kept it short.
      const { atTarget } = cell(lab.results('bank-router'), 'edge:1k:keepalive').costCurve;
      expect(atTarget.offeredRps).toBe(5000);
      if (atTarget.met) expect(atTarget.rps).toBeGreaterThanOrEqual(4750);
      else expect(atTarget.limit).toMatch(/^(router|generator|router\+generator|unknown)$/);
    },
  },
  'exercise-compare.md': {
    check: ({ run }) => {
      const lines = (out) => out.split('\n').filter((l) => /^(http|edge):1k:keepalive /.test(l));
      // A run against itself: no difference in any figure.
      const self = command(run, /npm run compare -- results\/compare-2-threads results\/compare-2-threads$/);
      const { FIGURES } = require('../../lib/results-model/comparison');
      expect(lines(self.stdout)).toHaveLength(2 * FIGURES.length);
      for (const line of lines(self.stdout)) expect(line).toMatch(/ 0\.0 % .* no difference detectable /);
      // The same lab twice: every figure of every cell has its interval.
      const same = command(
        run,
        /npm run compare -- results\/compare-2-threads results\/compare-2-threads-again/,
      );
      for (const line of lines(same.stdout)) expect(line).toMatch(/ % … [-+]?\d/);
      // One thread: the conditions name the change, and every line has its interval and a verdict.
      const threads = command(run, /npm run compare -- results\/compare-2-threads results\/compare-1-thread/);
      expect(threads.stdout).toContain('- router threads: A 2, B 1');
      for (const line of lines(threads.stdout)) {
        expect(line).toMatch(COMPARE_LINE);
      }
      // Two HAProxy versions under the real router, where that block ran (root, 2.8 built).
      if (run.some((c) => /results\/haproxy-3\.2$/.test(c.text))) haproxyVersionsHold(run);
    },
  },
  'exercise-http2.md': {
    check: ({ lab }) => {
      const r = lab.results('http2');
      // Each cell got the HTTP version its name claims, from the same router offering both.
      for (const c of r.cells) {
        const claim = c.name.endsWith(':h2') ? 'h2' : 'h1';
        expect({ cell: c.name, ...c.protocolEvidence }).toMatchObject({ cell: c.name, claim, holds: true });
      }
      // A new connection per request: the full handshake dominates, whichever version follows it.
      const close = routerUs(cell(r, 'edge:1k:close:full:h2')) / routerUs(cell(r, 'edge:1k:close:full'));
      expect(close).toBeGreaterThan(0.7);
      expect(close).toBeLessThan(1.43);
      // wrk speaks HTTP/1.1 only: haload, forced to h2, cross-checks the h2 keep-alive cell.
      expect(cell(r, 'edge:1k:keepalive:h2').crossCheck).toMatchObject({ tool: 'haload', errors: 0 });
      expect(cell(r, 'edge:1k:keepalive').crossCheck.tool).toBe('wrk');
    },
  },
  'exercise-gateway-api.md': {
    check: ({ run, lab }) => {
      const [routes, gateway] = [lab.results('routes'), lab.results('gateway')];
      expect([routes.environment.router.kind, gateway.environment.router.kind]).toEqual([
        'openshift',
        'gateway',
      ]);
      // istiod is sampled apart from Envoy, as the Gateway's control plane; the router pod has none apart.
      for (const c of gateway.cells) expect(c.router.controlPlaneCpuCores).toBeGreaterThanOrEqual(0);
      for (const c of routes.cells) expect(c.router).not.toHaveProperty('controlPlaneCpuCores');
      // compare names both routers and sets each cell's figures side by side, with intervals.
      const compared = command(run, /npm run compare -- results\/routes results\/gateway$/);
      expect(compared.stdout).toMatch(
        /^- router: A openshift-router .+ \(Routes\), B Envoy \S+ \(Gateway API\)$/m,
      );
      const lines = compared.stdout
        .split('\n')
        .filter((l) => /^(http|edge|reencrypt):1k:keepalive +router µs\/req/.test(l));
      expect(lines).toHaveLength(3);
      for (const line of lines) expect(line).toMatch(COMPARE_LINE);
      // A Route serves at the router's next reload; an HTTPRoute once istiod pushes it.
      const firstOk = (nth) =>
        Number(/First 200: p50 (\d+) ms/.exec(command(run, /npm run lab:admission/, nth).stdout)[1]);
      expect(firstOk(1)).toBeLessThan(firstOk(0));
    },
  },
  'exercise-router-key.md': {
    check: ({ lab }) => {
      const rsa = lab.results('key-rsa2048');
      const ecdsa = lab.results('key-ecdsa-p256');
      expect([rsa.handshakeFloor.key, ecdsa.handshakeFloor.key]).toEqual(['rsa2048', 'ecdsa-p256']);
      // An ECDSA P-256 signature is far cheaper than an RSA 2048 one, at the floor and at the router.
      expect(ecdsa.handshakeFloor.signUs).toBeLessThan(rsa.handshakeFloor.signUs);
      const full = (r) => cell(r, 'edge:1k:close:full');
      expect(routerUs(full(ecdsa))).toBeLessThan(routerUs(full(rsa)));
      // No router does a full handshake in less CPU than the floor.
      for (const r of [rsa, ecdsa]) expect(full(r).floorMultiple.median).toBeGreaterThanOrEqual(1);
    },
  },
  'exercise-sizing.md': {
    check: ({ run }) => {
      const table = command(run, /npm run sizing -- results\/sizing --tps 5000$/);
      expect(table.stdout).toMatch(/Sizing for 5000 TPS/);
      // npm prints its own '> script' banner first; the JSON follows it.
      const { stdout } = command(run, /--json/);
      const sized = JSON.parse(stdout.slice(stdout.indexOf('{')));
      expect(sized.tps).toBe(5000);
      const cores = (name) => sized.cells.find((c) => c.name === name).routerCores;
      expect(cores('edge:1k:close:full')).toBeGreaterThan(cores('edge:1k:keepalive'));
      // One router for the mix: the fifth on new connections takes most of its cores.
      const mix = command(run, /--mix edge=80,edge:1k:close=20$/).stdout;
      const share = (cell) => Number(new RegExp(`${cell} .* (\\d+\\.\\d) % `).exec(mix)[1]);
      expect(share('edge:1k:close:full')).toBeGreaterThan(50);
      expect(share('edge:1k:close:full') + share('edge:1k:keepalive')).toBeCloseTo(100, 0);
      expect(mix).toMatch(/^Router: \d+ core\(s\) → \d+ replicas × \d+ threads/m);
    },
  },
  'exercise-reliability.md': {
    check: ({ lab }) => {
      const doc = JSON.parse(
        fs.readFileSync(path.join(lab.resultsDir, 'reliability', 'reliability.json'), 'utf8'),
      );
      const verdicts = Object.fromEntries(doc.scenarios.map((s) => [s.name, s.verdict.pass]));
      // A reload that hands its sockets over loses nothing; a killed Redis costs 503s only.
      expect(verdicts).toEqual({ 'router-reload': true, 'redis-kill': true });
    },
  },
  'exercise-route-scale.md': {
    check: ({ lab }) => {
      const doc = JSON.parse(
        fs.readFileSync(path.join(lab.resultsDir, 'route-scale', 'route-scale.json'), 'utf8'),
      );
      expect(doc).toMatchObject({ complete: true, pass: true });
      const [few, many] = doc.counts;
      // More Routes: a longer render and parse on every reload.
      expect(many.reloads.renderMs.median).toBeGreaterThan(few.reloads.renderMs.median);
      expect(many.reloads.parseMs).toBeGreaterThan(few.reloads.parseMs);
      for (const c of doc.counts) {
        // Each reload left an old HAProxy, and hard-stop-after ended every one of them.
        expect(c.reloads.haproxy.old.length).toBeGreaterThanOrEqual(doc.options.reloads);
        expect(c.reloads.haproxy.old.every((o) => o.gone)).toBe(true);
        // Churn is batched: the first change at once, one reload per whole interval, and one for what
        // came after the last (its final delete, just after its last tick: 8 for 6.0 s at 1 s).
        for (const x of c.churn.cases) {
          expect(x.reloads).toBeLessThanOrEqual(2 + Math.floor(x.seconds / doc.router.reloadIntervalS));
        }
      }
    },
  },
  'size-your-cluster.md': {
    check: ({ run, lab }) => {
      // The rehearsal measured the node as a cluster: the router's cost from Prometheus (cAdvisor).
      const results = lab.results('size-rehearsal');
      expect(results.environment.target).toBe('cluster');
      // Passthrough terminates no TLS: a fraction of what edge and re-encrypt cost the router.
      const us = (name) => routerUs(cell(results, name));
      expect(us('passthrough:1k:close:full')).toBeLessThan(us('edge:1k:close:full'));
      expect(us('passthrough:1k:close:full')).toBeLessThan(us('reencrypt:1k:close:full'));
      const { stdout } = command(run, /npm run sizing -- results\/size-rehearsal .*--mix/);
      expect(stdout).toMatch(/^Router: \d+ core\(s\) → \d+ replicas × \d+ threads/m);
      expect(stdout).toMatch(/^The limit: (router|data service) needs the most cores/m);
      expect(stdout).toMatch(/From this cluster's pods, read from Prometheus/);
    },
  },
  'exercise-router-reload.md': {
    check: ({ lab }) => {
      const c = cell(lab.results('reload'), 'edge:1k:keepalive');
      expect({ errorRate: c.errorRate, errors: c.errors }).toEqual({ errorRate: 0, errors: {} });
      // The router really reloaded, ten times, under that load.
      const now = JSON.parse(fs.readFileSync(path.join(lab.labDir, 'lab.json'), 'utf8'));
      expect(now.router.reloads).toBeGreaterThanOrEqual(10);
    },
  },
};

module.exports = { LESSONS };
