'use strict';
// `--target cluster` rehearsed on the real-router lab: the Routes from its API server, the
// router's and the data service's CPU from its Prometheus, verdicts and report as for a lab
// cell; each bad input said in the cell while the run goes on; unreachable Routes said before it.
const fs = require('node:fs');
const path = require('node:path');
const { sharedLab, useTempDir } = require('../lab/helpers');
const { parseMatrixArgs } = require('../../lib/matrix/options');
const { runMatrix } = require('../../lib/matrix/run');
const { renderMarkdown } = require('../../lib/report/markdown');
const { withTreeCpu } = require('../support/tree-cpu');
const { freePort } = require('../../lib/core/ports');

jest.setTimeout(300000);

const describeAsRoot = process.getuid() === 0 ? describe : describe.skip;

describeAsRoot('--target cluster against the real-router lab and its Prometheus', () => {
  // The run's shared real-router lab, openshift-lab.test.js's (its 1 s reload interval changes no
  // figure here): matrix runs only read it.
  const lab$ = sharedLab({ LAB_ROUTER: 'openshift', LAB_ROUTER_RELOAD_INTERVAL: '1' });
  const dir = useTempDir('rlab-cluster-');
  // The command lab:status prints, as arguments.
  const clusterArgs = () => lab$.state.router.monitoring.clusterCommand.split(' ').slice(4);
  // `samples`: the agreement with /proc needs two; the error paths say the same after one.
  const run = async (name, extra, samples = 1) => {
    const opts = parseMatrixArgs([
      ...clusterArgs(),
      ...['--duration', '4', '--samples', String(samples), '--warmup', '0', '--cooldown', '0', '--no-report'],
      ...['--out', path.join(dir, name), ...extra],
    ]);
    const lines = [];
    const { results } = await runMatrix(opts, {
      env: lab$.env,
      log: (line) => lines.push(line),
      progressStream: fs.createWriteStream('/dev/null'),
    });
    return { results, lines };
  };

  test('Routes from the API, the router from Prometheus: the same figures and verdicts, agreeing with /proc', async () => {
    const state = lab$.state;
    const cells = ['--cells', 'http:1k:keepalive,edge:1k:close:full,passthrough:1k:keepalive'];
    const {
      result: { results },
      over,
    } = await withTreeCpu(state.router.pid, () => run('rehearsal', cells, 2));
    expect(results.environment.api.server).toBe(state.router.kube.server);
    expect(results.environment.clusterRouter).toMatchObject({
      ingressController: 'default',
      threads: state.router.threads,
      replicas: 1,
      source: 'IngressController openshift-ingress-operator/default',
    });
    expect(results.environment.prometheus).toMatchObject({ profile: 'lab', scrapeIntervalSeconds: 1 });
    for (const cell of results.cells) {
      expect(cell.router.metricsError).toBeNull();
      expect(cell.router.cpuCores).toBeGreaterThan(0);
      expect(cell.cost.router.perRequestUs.median).toBeGreaterThan(0);
      expect(cell.backend.instances.map((i) => i.name)).toEqual(state.instances.map((i) => i.name));
      // Open client connections seen by the router; keep-alive opens them all before the window.
      expect(cell.router.prometheus.currentSessions.max).toBeGreaterThan(0);
      if (cell.connection === 'close') expect(cell.router.prometheus.connectionsPerSec).toBeGreaterThan(0);
      expect(cell.limitedBy.by).not.toBe('unknown');
      expect(cell.capacity.perCoreRps).toBeGreaterThan(0);
    }
    const http = results.cells.find((c) => c.termination === 'http');
    // The router counted this Route's responses (its exporter refreshes them every second or so,
    // too coarse for a 4 s sample to match k6's rate closely).
    expect(http.router.prometheus.responsesPerSec).toBeGreaterThan(0);
    // The same samples, read both ways: Prometheus's CPU against the process tree's in /proc, over
    // the ranges Prometheus was asked about.
    let [promSeconds, procSeconds] = [0, 0];
    for (const { router } of results.cells) {
      const proc = over(router.prometheus.windows);
      promSeconds += router.cpuCores * proc.seconds;
      procSeconds += proc.cpuSeconds;
    }
    expect(promSeconds / procSeconds).toBeGreaterThan(0.85);
    expect(promSeconds / procSeconds).toBeLessThan(1.15);
    expect(renderMarkdown(results)).toContain('http:1k:keepalive');
  });

  test('Prometheus unreachable, an empty query, a Route missing: said in the cell and on the console, the run goes on', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await run('closed', ['--cells', 'http:1k:keepalive', '--prometheus', closed]);
    const [cell] = unreachable.results.cells;
    expect(cell.router.metricsError).toMatch(
      /router CPU: Prometheus at http:\/\/127\.0\.0\.1:\d+ is unreachable/,
    );
    expect(cell.limitedBy.by).toBe('unknown');
    expect(cell.limitedBy.reasons.at(-1).text).toMatch(
      /not measured \(router CPU: Prometheus at .* is unreachable/,
    );
    expect(unreachable.lines.join('\n')).toMatch(
      /http:1k:keepalive: router CPU: Prometheus at .* is unreachable/,
    );

    // The OpenShift profile's series are not in the lab's Prometheus: no series, said as such.
    const empty = await run('empty', ['--cells', 'http:1k:keepalive', '--prometheus-profile', 'openshift']);
    expect(empty.results.cells[0].router.metricsError).toMatch(
      /router CPU: no series scraped twice within the sample for container_cpu_usage_seconds_total/,
    );

    const other = await run('other-namespace', ['--cells', 'http:1k:keepalive', '--namespace', 'elsewhere']);
    expect(other.results.cells).toEqual([]);
    expect(other.results.skippedCells).toEqual([
      {
        name: 'http:1k:keepalive',
        reason: "Route data-service-http is not in namespace elsewhere ('oc get routes -n elsewhere')",
      },
    ]);
  });

  test('Route hosts that do not resolve, or a router that refuses, end the run before any sample, saying what to do', async () => {
    // Without --router-address the hosts go to DNS, as for a workstation whose DNS does not know
    // the cluster's apps domain: one under .invalid (RFC 6761), which no resolver answers (some
    // resolve *.localhost, the lab's own domain).
    const args = clusterArgs();
    const at = args.indexOf('--router-address');
    const withoutAddress = [...args.slice(0, at), ...args.slice(at + 2), '--apps-domain', 'apps.lab.invalid'];
    const attempt = (name, extra) =>
      runMatrix(
        parseMatrixArgs([
          ...extra,
          '--cells',
          'http:1k:keepalive,edge:1k:keepalive',
          '--out',
          path.join(dir, name),
        ]),
        { env: lab$.env, log: () => {}, progressStream: fs.createWriteStream('/dev/null') },
      );
    await expect(attempt('unresolved', withoutAddress)).rejects.toThrow(
      /nothing was measured:\n {2}http: data-service-http-router-lab\.apps\.lab\.invalid does not resolve \(ENOTFOUND\)\n {2}edge: .* does not resolve[^]*--router-address ADDRESS/,
    );
    const closed = String(await freePort());
    await expect(attempt('refused', [...args, '--http-port', closed])).rejects.toThrow(
      new RegExp(`http: the router at 127\\.0\\.0\\.1:${closed} \\(.*\\): connection refused\n`),
    );
    // Refused before anything was written.
    expect(fs.existsSync(path.join(dir, 'unresolved'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'refused'))).toBe(false);
  });
});
