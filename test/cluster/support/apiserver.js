'use strict';
// A throwaway Kubernetes API server for the manifest tests: etcd and kube-apiserver on loopback,
// a self-signed certificate, one admin token, AlwaysAllow. No controllers run: the point is the
// server's own validation of server-side apply with dryRun=All.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { requireTool } = require('../../../lib/core/tools');
const { setTimeout: sleep } = require('node:timers/promises');
const { freePorts, waitForPort } = require('../../../lib/core/ports');
const { startChild } = require('../../../lib/core/processes');
const {
  servingCredentials,
  etcdArgs,
  etcdEnv,
  apiserverArgs,
} = require('../../../lib/lab/kube/control-plane');
const { kubeClient } = require('../../../lib/lab/kube/api');

const FIELD_MANAGER = 'router-lab-test';

class TestApiServer {
  constructor() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-apiserver-'));
    this.children = [];
    this.resources = new Map(); // "group/version Kind" -> { plural, namespaced, base }
  }

  async start({ timeoutMs = 120000 } = {}) {
    const [etcdClient, etcdPeer, apiPort] = await freePorts(3);
    const etcd = startChild(
      requireTool('etcd'),
      etcdArgs({ dataDir: path.join(this.dir, 'etcd'), client: etcdClient, peer: etcdPeer }),
      { env: etcdEnv() },
    );
    this.children.push(etcd);
    await this.waitFor(etcdClient, etcd, 'etcd', 30000);

    const { ca, serving, saKey } = await servingCredentials(path.join(this.dir, 'certs'));
    this.token = crypto.randomBytes(24).toString('hex');
    const tokens = path.join(this.dir, 'tokens.csv');
    fs.writeFileSync(tokens, `${this.token},router-lab-admin,1,"system:masters"\n`, { mode: 0o600 });

    const apiserver = startChild(
      requireTool('kube-apiserver'),
      apiserverArgs(
        { serving, ca, tokenFile: tokens, saKey },
        { etcdClient, apiPort, serviceCidr: '198.19.0.0/18', authorization: 'AlwaysAllow' },
      ),
    );
    this.children.push(apiserver);
    this.port = apiPort;
    this.ca = fs.readFileSync(ca.cert);
    await this.waitFor(apiPort, apiserver, 'kube-apiserver', timeoutMs);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.request('GET', '/readyz').catch((err) => ({ status: 0, text: err.message }));
      if (r.status === 200) break;
      if (Date.now() > deadline) {
        throw new Error(
          `kube-apiserver not ready after ${timeoutMs} ms: ${r.text}\n${apiserver.output().slice(-3000)}`,
        );
      }
      await sleep(250);
    }
    return this;
  }

  async waitFor(port, child, what, timeoutMs) {
    const exited = child.exited.then(({ code, signal }) => {
      throw new Error(`${what} exited (${code ?? signal}) while starting:\n${child.output().slice(-3000)}`);
    });
    await Promise.race([waitForPort(port, { timeoutMs, what }), exited]);
    exited.catch(() => {});
  }

  async stop() {
    for (const child of this.children.reverse()) await child.stop({ timeoutMs: 10000 });
    this.children = [];
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** One HTTPS request; resolves with { status, json, text, warnings }. */
  async request(method, urlPath, { body, contentType } = {}) {
    const client = kubeClient({ server: `https://127.0.0.1:${this.port}`, ca: this.ca, token: this.token });
    const { status, json, text, headers } = await client.send(method, urlPath, { body, contentType });
    const raw = headers.warning;
    const warnings = raw ? (Array.isArray(raw) ? raw : [raw]).flatMap((w) => w.split(/,(?=\s*\d{3} )/)) : [];
    return { status, json, text, warnings: warnings.map((w) => w.trim()) };
  }

  /** Creates the CRDs and waits until each is Established. */
  async installCrds(crds, { timeoutMs = 60000 } = {}) {
    for (const crd of crds) {
      const r = await this.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
        body: crd,
      });
      if (r.status !== 201)
        throw new Error(`creating CRD ${crd.metadata.name}: ${r.status} ${r.text.slice(0, 2000)}`);
    }
    const deadline = Date.now() + timeoutMs;
    for (const crd of crds) {
      for (;;) {
        const r = await this.request(
          'GET',
          `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
        );
        const conditions = (r.json && r.json.status && r.json.status.conditions) || [];
        if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) break;
        if (Date.now() > deadline)
          throw new Error(`CRD ${crd.metadata.name} not established: ${JSON.stringify(conditions)}`);
        await sleep(200);
      }
    }
    this.resources.clear();
  }

  /** API discovery: the REST path of every kind the server serves. */
  async discover() {
    const lists = [];
    const core = await this.request('GET', '/api/v1');
    lists.push({ base: '/api/v1', groupVersion: 'v1', list: core.json });
    const groups = await this.request('GET', '/apis');
    for (const g of groups.json.groups) {
      for (const v of g.versions) {
        const r = await this.request('GET', `/apis/${v.groupVersion}`);
        if (r.status === 200)
          lists.push({ base: `/apis/${v.groupVersion}`, groupVersion: v.groupVersion, list: r.json });
      }
    }
    this.resources.clear();
    for (const { base, groupVersion, list } of lists) {
      for (const res of list.resources) {
        if (res.name.includes('/')) continue; // subresources
        this.resources.set(`${groupVersion} ${res.kind}`, {
          plural: res.name,
          namespaced: res.namespaced,
          base,
        });
      }
    }
  }

  async resourceFor(apiVersion, kind) {
    if (!this.resources.size) await this.discover();
    const found = this.resources.get(`${apiVersion} ${kind}`);
    if (!found) throw new Error(`the API server does not serve ${kind} in ${apiVersion}`);
    return found;
  }

  /**
   * Server-side apply of one object. With dryRun (the default) nothing is stored: the server
   * runs defaulting, validation and admission and answers as if it had.
   */
  async apply(obj, { namespace, dryRun = true } = {}) {
    const res = await this.resourceFor(obj.apiVersion, obj.kind);
    const ns = obj.metadata.namespace || namespace;
    if (res.namespaced && !ns) throw new Error(`${obj.kind} ${obj.metadata.name} needs a namespace`);
    const collection = res.namespaced
      ? `${res.base}/namespaces/${ns}/${res.plural}`
      : `${res.base}/${res.plural}`;
    const query = new URLSearchParams({ fieldManager: FIELD_MANAGER, force: 'true' });
    if (dryRun) query.set('dryRun', 'All');
    const url = `${collection}/${encodeURIComponent(obj.metadata.name)}?${query}`;
    return this.request('PATCH', url, { body: obj, contentType: 'application/apply-patch+yaml' });
  }
}

module.exports = { TestApiServer };
