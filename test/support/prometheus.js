'use strict';
// A real Prometheus for tests on a free port, empty or loaded with OpenMetrics series (promtool
// blocks); and HAProxy in front checking bearer tokens as kube-rbac-proxy guards OpenShift's
// Thanos querier: 401 for an unknown token, 403 for one without the role.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { setTimeout: sleep } = require('node:timers/promises');
const { requireTool } = require('../../lib/core/tools');
const { startChild } = require('../../lib/core/processes');
const { freePort } = require('../../lib/core/ports');

async function waitReady(url, child) {
  for (let i = 0; i < 150; i++) {
    if (child.child.exitCode !== null) throw new Error(`exited at start-up:\n${child.output()}`);
    try {
      if ((await fetch(`${url}/-/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} not ready in 15 s:\n${child.output()}`);
}

/** Starts Prometheus in `dir`; `openMetrics` (text ending in `# EOF`) is loaded first. */
async function startPrometheus(dir, { openMetrics = null } = {}) {
  const data = path.join(dir, 'data');
  fs.mkdirSync(data, { recursive: true });
  if (openMetrics) {
    const input = path.join(dir, 'series.om');
    fs.writeFileSync(input, openMetrics);
    execFileSync(requireTool('promtool'), ['tsdb', 'create-blocks-from', 'openmetrics', '-q', input, data]);
  }
  const config = path.join(dir, 'prometheus.yml');
  fs.writeFileSync(config, 'global: {}\n');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = startChild(requireTool('prometheus'), [
    `--config.file=${config}`,
    `--storage.tsdb.path=${data}`,
    '--storage.tsdb.retention.time=10y',
    `--web.listen-address=127.0.0.1:${port}`,
  ]);
  await waitReady(url, child);
  return { url, stop: () => child.stop() };
}

/** HAProxy in front of `upstream`: `good` passes, `no-role` gets 403, anything else 401. */
async function startBearerProxy(dir, upstream) {
  const port = await freePort();
  const config = path.join(dir, 'proxy.cfg');
  const up = new URL(upstream);
  fs.writeFileSync(
    config,
    [
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 10s',
      '  timeout server 10s',
      'frontend querier',
      `  bind 127.0.0.1:${port}`,
      '  acl good req.hdr(authorization) -m str "Bearer good"',
      '  acl no_role req.hdr(authorization) -m str "Bearer no-role"',
      '  http-request return status 403 content-type text/plain string "Forbidden" if no_role',
      '  http-request return status 401 content-type text/plain string "Unauthorized" unless good',
      '  default_backend prometheus',
      'backend prometheus',
      `  server p ${up.hostname}:${up.port}`,
      '',
    ].join('\n'),
  );
  const child = startChild(requireTool('haproxy'), ['-db', '-f', config]);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.child.exitCode !== null) throw new Error(`haproxy exited:\n${child.output()}`);
    try {
      await fetch(url);
      return { url, stop: () => child.stop() };
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`haproxy did not listen on ${url}:\n${child.output()}`);
}

module.exports = { startPrometheus, startBearerProxy };
