'use strict';
// The Gateway API beside the Routes, on the real router's lab: the Gateway API's and Istio's CRDs
// from setup, overlays/components/gateway-api applied with kubectl, real istiod configuring real
// Envoy; plain HTTP and edge TLS answer from the data service's instances, and lab:down stops both.
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const { useLab } = require('./helpers');
const { freePort } = require('../../lib/core/ports');
const { isAlive } = require('../../lib/core/processes');
const { request } = require('../../lib/lab/common/client');
const { kubeClient } = require('../../lib/lab/kube/api');
const { readKubeconfig } = require('../../lib/lab/kube/kubeconfig');
const { podNetwork } = require('../../lib/lab/common/pod-network');
const { listRecords } = require('../../lib/lab/common/pids');
const { startGateway, GATEWAY } = require('../../lib/lab/gateway');

jest.setTimeout(180000);

const describeAsRoot = process.getuid() === 0 ? describe : describe.skip;

describeAsRoot('Gateway API: istiod and Envoy from objects applied with kubectl', () => {
  const lab$ = useLab({ LAB_ROUTER: 'openshift' });
  let started;
  let kubeconfig;
  const kubectl = (...args) =>
    JSON.parse(
      execFileSync('.tools/bin/kubectl', ['--kubeconfig', kubeconfig, ...args, '-o', 'json'], {
        encoding: 'utf8',
      }),
    );

  beforeAll(async () => {
    const { state } = lab$;
    kubeconfig = state.router.kube.kubeconfig;
    const ports = {};
    for (const name of ['http', 'https', 'admin', 'grpc', 'istiod', 'webhook', 'monitoring'])
      ports[name] = await freePort();
    const lines = [];
    started = await startGateway({
      labDir: state.labDir,
      kube: { admin: kubeClient(readKubeconfig(kubeconfig)), kubeconfig },
      instances: state.instances,
      certs: state.certs,
      address: podNetwork(state.labDir).hostAddress,
      ports,
      log: (line) => lines.push(line),
    });
    expect(lines.join('\n')).toMatch(/httproute.gateway.networking.k8s.io\/data-service created/);
  }, 240000);

  test('istiod accepts the Gateway and the HTTPRoute, and programs the Gateway on its Service', () => {
    const gateway = kubectl('get', 'gateway', GATEWAY.name, '-n', GATEWAY.namespace);
    const status = (conditions, type) => conditions.find((c) => c.type === type)?.status;
    expect(status(gateway.status.conditions, 'Accepted')).toBe('True');
    expect(status(gateway.status.conditions, 'Programmed')).toBe('True');
    const route = kubectl('get', 'httproute', 'data-service', '-n', 'router-lab');
    expect(
      route.status.parents.map((p) => [p.parentRef.sectionName, status(p.conditions, 'Accepted')]).sort(),
    ).toEqual([
      ['http', 'True'],
      ['https', 'True'],
    ]);
  });

  test('plain HTTP and edge TLS answer from the data service through Envoy, with the lab CA’s certificate', async () => {
    const names = lab$.state.instances.map((i) => i.name);
    const http = await request(`http://data-service.apps.lab.localhost:${started.ports.http}/api/whoami`);
    expect(http.status).toBe(200);
    expect(names).toContain(http.json().instance);
    const ca = fs.readFileSync(lab$.state.certs.labCA);
    const https = await request(`https://data-service.apps.lab.localhost:${started.ports.https}/api/whoami`, {
      ca,
    });
    expect(https.status).toBe(200);
    expect(names).toContain(https.json().instance);
    // Envoy answered both: its own count of 2xx responses on its listeners.
    const stats = await request(
      `http://127.0.0.1:${started.ports.admin}/stats?format=json&filter=downstream_rq_2xx`,
    );
    const served = stats
      .json()
      .stats.filter((x) => /^http\./.test(x.name))
      .reduce((sum, x) => sum + x.value, 0);
    expect(served).toBeGreaterThanOrEqual(2);
  });

  test('istiod and Envoy are processes of the lab: lab:down stops them', async () => {
    const records = listRecords(lab$.state.labDir).filter((r) => ['istiod', 'envoy'].includes(r.name));
    expect(records.map((r) => r.name).sort()).toEqual(['envoy', 'istiod']);
    await require('../../lib/lab/index').down({ env: lab$.env, log: () => {} });
    expect(records.filter((r) => isAlive(r.pid))).toEqual([]);
  });
});
