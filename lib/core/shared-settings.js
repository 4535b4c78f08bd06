'use strict';
// Declarations several commands take alike (lib/core/settings.js), declared once: --quick, --out
// and the Prometheus options. A command adds its own help where the words differ.
const fs = require('node:fs');
const { UsageError } = require('./settings');

/** --quick: every setting with a `quick` value takes it (settings.js resolve). */
const quick = (help) => ({ name: 'quick', flag: '--quick', type: 'boolean', help });

/** --out DIR: where a command writes; `help` says what and the default. */
const out = (help) => ({ name: 'out', flag: '--out', arg: 'DIR', type: 'string', help });

/** Reading a router's CPU and metrics from Prometheus: the matrix against a cluster, and cluster:k6. */
const PROMETHEUS_SETTINGS = [
  {
    name: 'prometheus',
    flag: '--prometheus',
    arg: 'URL',
    type: 'string',
    help:
      "cluster: read the router's and the data service's CPU and the router's metrics from this " +
      "Prometheus (OpenShift: the thanos-querier Route's URL)",
  },
  {
    name: 'token',
    flag: '--token',
    arg: 'TOKEN',
    env: 'PROMETHEUS_TOKEN',
    type: 'string',
    help: "the bearer token for --prometheus; default: the kubeconfig's where the matrix reads the Routes through it, and `oc whoami -t` for cluster:k6",
  },
  {
    name: 'prometheusCaFile',
    flag: '--prometheus-ca-file',
    arg: 'FILE',
    type: 'string',
    help: "the CA that signed --prometheus's certificate (default: the system's store)",
  },
  {
    name: 'scrapeInterval',
    flag: '--scrape-interval',
    arg: 'SECONDS',
    type: 'integer',
    min: 1,
    default: 30,
    help: "how often Prometheus scrapes the router (OpenShift's monitoring: 30); a sample must last 4 of these",
  },
];

/**
 * The Prometheus settings checked before anything runs: an http(s) URL, a CA file that exists,
 * and samples (`duration`, seconds) of 4 scrape intervals at least (fewer leave a rate to one or
 * two increases).
 */
function checkPrometheus(v) {
  if (!v.prometheus) return;
  if (!/^https?:\/\/[^/\s]+/.test(v.prometheus)) {
    throw new UsageError(`--prometheus must be an http(s) URL, not '${v.prometheus}'`, {
      setting: '--prometheus',
    });
  }
  if (v.prometheusCaFile && !fs.existsSync(v.prometheusCaFile)) {
    throw new UsageError(`--prometheus-ca-file ${v.prometheusCaFile}: no such file`, {
      setting: '--prometheus-ca-file',
    });
  }
  if (v.duration >= 4 * v.scrapeInterval) return;
  throw new UsageError(
    `--duration ${v.duration}s is shorter than 4 scrape intervals (--scrape-interval ${v.scrapeInterval}s): ` +
      `give a --duration of ${4 * v.scrapeInterval} s or more`,
    { setting: '--duration' },
  );
}

module.exports = { quick, out, PROMETHEUS_SETTINGS, checkPrometheus };
