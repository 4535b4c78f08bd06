'use strict';
// The lab's cluster monitoring (LAB_ROUTER=openshift): a real Prometheus scraping the real router's
// /metrics, and CPU per process group from prometheus-process-exporter (router, data-service-<n>,
// redis-<n>) standing in for cAdvisor; with pods (LAB_PODS=yes) the kubelet's cAdvisor itself.
const { escapeRegex } = require('../../core/text');
const fs = require('node:fs');
const path = require('node:path');
const { requireTool } = require('../../core/tools');
const { launch, assertRunning, waitUntil, logTail, instanceMarker } = require('../common/stack');
const { request } = require('../common/client');
const { createClientCert } = require('../../core/certs');
const { ROUTER_NAMESPACE } = require('../common/routes');
const { POD_NAME } = require('./router-pod');

/** How often Prometheus scrapes the lab: a sample must last 4 of these (the matrix refuses less). */
const SCRAPE_INTERVAL_S = 1;

const monitoringDir = (labDir) => path.join(labDir, 'monitoring');

/**
 * The exporter's groups: the router's whole process tree (unshare's command line names the lab's
 * directory; its children, openshift-router and every HAProxy, follow it), each instance by the
 * marker its command line carries, each Redis node by its port (redis-server retitles itself).
 */
function exporterGroups(lab) {
  const dir = escapeRegex(lab.labDir);
  return [
    { name: 'router', cmdline: [`(^|/)unshare .* ${dir}/`] },
    ...lab.instances.map((inst) => ({
      name: inst.name,
      cmdline: [`server\\.js ${escapeRegex(instanceMarker(lab.labDir, inst.name))}$`],
    })),
    ...lab.redisPorts.map((port, i) => ({
      name: `redis-${i + 1}`,
      cmdline: [`redis-server \\S+:${port}\\b`],
    })),
  ];
}

/**
 * LAB_PODS=yes: the kubelet's cAdvisor, as a cluster's monitoring scrapes it (per-container CPU
 * labelled namespace, pod, container), with a client certificate of the lab's cluster CA. The
 * kubelet's serving certificate is its own self-signed one.
 */
function cadvisorJob(lab, dir) {
  const client = createClientCert(dir, 'prometheus-kubelet-client', {
    ca: lab.kube.ca,
    commonName: 'prometheus',
  });
  return {
    job_name: 'kubelet-cadvisor',
    scheme: 'https',
    metrics_path: '/metrics/cadvisor',
    tls_config: { cert_file: client.cert, key_file: client.key, insecure_skip_verify: true },
    static_configs: [{ targets: [`${lab.node.addresses.gateway}:${lab.node.kubeletPort}`] }],
  };
}

/** prometheus.yml: the router's /metrics (its stats credentials), the process exporter, the kubelet's cAdvisor. */
function prometheusConfig(lab, stats, cadvisor = null) {
  const interval = `${SCRAPE_INTERVAL_S}s`;
  return {
    global: { scrape_interval: interval, scrape_timeout: interval, evaluation_interval: interval },
    scrape_configs: [
      {
        job_name: 'router',
        basic_auth: { username: stats.username, password: stats.password },
        // As OpenShift's monitoring labels a router pod of IngressController `default`: the router's
        // own `namespace` label (the Route's) becomes `exported_namespace`.
        static_configs: [
          {
            targets: [`127.0.0.1:${lab.ports.stats}`],
            labels: { namespace: ROUTER_NAMESPACE, pod: POD_NAME },
          },
        ],
      },
      {
        job_name: 'process-exporter',
        static_configs: [{ targets: [`127.0.0.1:${lab.ports.processExporter}`] }],
      },
      ...(cadvisor ? [cadvisor] : []),
    ],
  };
}

/** Resolves once Prometheus reports every target up (a first scrape of each succeeded). */
async function waitTargetsUp(lab, url, count) {
  await waitUntil(
    async () => {
      const res = await request(`${url}/api/v1/targets?state=active`, { timeoutMs: 2000 });
      const targets = res.status === 200 ? res.json().data.activeTargets : [];
      const down = targets.filter((t) => t.health !== 'up');
      if (down.length)
        throw new Error(down.map((t) => `${t.scrapeUrl}: ${t.lastError || t.health}`).join('; '));
      return targets.length === count;
    },
    {
      timeoutMs: 30000,
      what: `Prometheus scraping every target (${url}/targets)`,
      signal: lab.signal,
      diagnose: () => logTail(lab.labDir, 'prometheus'),
    },
  );
}

/**
 * The matrix against this lab as against a cluster: Routes from its API, the router from
 * Prometheus; with pods, through cAdvisor's series as on OpenShift (the openshift profile).
 */
function clusterCommand(lab, url) {
  const profile = lab.node ? 'openshift' : 'lab';
  return [
    'npm run matrix -- --target cluster',
    `--kubeconfig ${lab.kube.kubeconfig}`,
    `--router-address 127.0.0.1 --http-port ${lab.ports.http} --https-port ${lab.ports.https}`,
    `--ca-file ${lab.certs.labCA}`,
    `--prometheus ${url} --prometheus-profile ${profile} --scrape-interval ${SCRAPE_INTERVAL_S}`,
  ].join(' ');
}

/**
 * Starts the process exporter and Prometheus for the lab's instances (and, with pods, lab.node's
 * kubelet); returns what monitoringReady waits for. JSON is YAML, so both configurations are
 * written as JSON. Prometheus 2.42 takes its first targets on a 5 s tick after it starts: launched
 * before the control plane, it scrapes them by the time the router serves, not 5 s after.
 */
function launchMonitoring(lab, { stats }) {
  const dir = monitoringDir(lab.labDir);
  fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
  const groups = exporterGroups(lab);
  const exporterConfig = path.join(dir, 'process-exporter.yml');
  fs.writeFileSync(exporterConfig, `${JSON.stringify({ process_names: groups }, null, 2)}\n`);
  const exporter = launch(lab.labDir, {
    name: 'process-exporter',
    role: 'monitoring',
    file: requireTool('prometheus-process-exporter'),
    args: [
      `-config.path=${exporterConfig}`,
      `-web.listen-address=127.0.0.1:${lab.ports.processExporter}`,
      '-threads=false',
      '-gather-smaps=false',
    ],
    match: exporterConfig,
  });
  const config = path.join(dir, 'prometheus.yml');
  const scrapes = prometheusConfig(lab, stats, lab.node ? cadvisorJob(lab, dir) : null);
  fs.writeFileSync(config, `${JSON.stringify(scrapes, null, 2)}\n`);
  const url = `http://127.0.0.1:${lab.ports.prometheus}`;
  const prometheus = launch(lab.labDir, {
    name: 'prometheus',
    role: 'monitoring',
    file: requireTool('prometheus'),
    args: [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      '--storage.tsdb.retention.time=2d',
      `--web.listen-address=127.0.0.1:${lab.ports.prometheus}`,
      '--log.level=warn',
    ],
    match: config,
  });
  return { url, exporter, prometheus, groups, targets: scrapes.scrape_configs.length };
}

/**
 * Waits until launchMonitoring's Prometheus is ready and scrapes every target (the router's
 * /metrics among them); resolves lab.json's `monitoring`: { url, scrapeIntervalSeconds,
 * clusterCommand, processExporterUrl, groups }.
 */
async function monitoringReady(lab, { url, exporter, prometheus, groups, targets }) {
  await waitUntil(
    async () => {
      assertRunning(lab.labDir, exporter);
      assertRunning(lab.labDir, prometheus);
      return (await request(`${url}/-/ready`, { timeoutMs: 1000 })).status === 200;
    },
    {
      timeoutMs: 30000,
      what: `Prometheus ready (${url}/-/ready)`,
      signal: lab.signal,
      diagnose: () => logTail(lab.labDir, 'prometheus'),
    },
  );
  await waitTargetsUp(lab, url, targets);
  return {
    url,
    scrapeIntervalSeconds: SCRAPE_INTERVAL_S,
    clusterCommand: clusterCommand(lab, url),
    processExporterUrl: `http://127.0.0.1:${lab.ports.processExporter}/metrics`,
    groups: groups.map((g) => g.name),
  };
}

module.exports = { SCRAPE_INTERVAL_S, launchMonitoring, monitoringReady, exporterGroups, prometheusConfig };
