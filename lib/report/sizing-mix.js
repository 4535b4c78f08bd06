'use strict';
// `npm run sizing -- --mix …` on the console: one row per entry of the mix, then the router's
// cores and shape, the data service's pods, Redis, and the limit (lib/results-model/mix.js).
const { table } = require('../core/text');
const { pct } = require('./format');

const dash = (v) => (v === null || v === undefined ? '–' : String(v));

/** The mix's lines: the table, then one line per role. `cluster`: the run measured a cluster. */
function mixLines(mix, { runId, target, cluster }) {
  const rows = mix.entries.map((e) => [
    e.key,
    e.cell,
    `${e.percent} %`,
    String(e.tps),
    e.routerBasis === 'curve' ? `${dash(e.routerUs)} (curve)` : dash(e.routerUs),
    pct(e.routerCoreShare, 1),
    dash(e.serviceUs),
  ]);
  const head = ['entry', 'cell', 'share', 'TPS', 'router µs/req', "of the router's cores", 'service µs/req'];
  const { router, service } = mix;
  const shape = router.shape
    ? ` → ${router.shape.replicas} replicas × ${router.shape.threads} threads ` +
      `(IngressController spec.replicas ${router.shape.replicas}, spec.tuningOptions.threadCount ${router.shape.threads}: ` +
      `${router.shape.cores} cores)`
    : '';
  const covered =
    mix.coveredPercent < 100 ? ` (${mix.coveredPercent} % of the traffic: the rest is not sized)` : '';
  return [
    `Sizing for ${mix.tps} TPS of this mix${covered}, from run ${runId} (${target}), ` +
      `${Math.round(mix.headroom * 100)} % headroom:`,
    '',
    table({ head, rows }),
    '',
    `Router: ${dash(router.cores)} core(s)${shape}`,
    ...(router.fixedCores > 0
      ? [
          `  with ${router.fixedCores} core(s) of fixed work before headroom (the cost curves'; once, whatever the mix)`,
        ]
      : []),
    `Data service: ${dash(service.pods)} pod(s) at ${service.coresPerPod} core each`,
    `Redis: ${mix.redis}`,
    `The limit: ${mix.limit.why}`,
    '',
    cluster
      ? "From this cluster's pods, read from Prometheus, at their nodes' speed."
      : 'A projection from one machine (docs/sizing.md): a core here is not a core on your nodes.',
  ];
}

module.exports = { mixLines };
