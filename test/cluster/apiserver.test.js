'use strict';
// Every object of every build applied (dryRun=All) to a real kube-apiserver with the CRDs installed:
// it catches what schemas cannot, such as selectors that miss the pod template, the CRDs' CEL rules
// and Pod Security admission at the restricted level.
const { TestApiServer } = require('./support/apiserver');
const { apiserverCrds } = require('../../lib/setup/validation-tools');
const names = require('../../lib/cluster/names');
const { allBuilds, named } = require('./support/builds');

const NAMESPACE = names.DEFAULT_NAMESPACE;
let server;
let builds;

beforeAll(async () => {
  builds = allBuilds();
  server = new TestApiServer();
  await server.start();
  await server.installCrds(apiserverCrds());
  for (const [ns, labels] of [
    // Pod Security admission warns about every workload whose pods would break "restricted".
    [
      NAMESPACE,
      { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'restricted' },
    ],
    ['openshift-ingress-operator', {}],
  ]) {
    const r = await server.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels } },
    });
    if (r.status !== 201) throw new Error(`creating namespace ${ns}: ${r.status} ${r.text}`);
  }
  // A bare Pod (the results reader) needs the namespace's default ServiceAccount, which a real
  // cluster's controller creates and this server, with no controllers, does not.
  const sa = await server.request('POST', `/api/v1/namespaces/${NAMESPACE}/serviceaccounts`, {
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } },
  });
  if (sa.status !== 201) throw new Error(`creating the default ServiceAccount: ${sa.status} ${sa.text}`);
}, 240000);

afterAll(async () => {
  if (server) await server.stop();
});

const clone = (o) => JSON.parse(JSON.stringify(o));

test('every object of every build is accepted, with no Pod Security warning', async () => {
  const rejected = [];
  let count = 0;
  for (const [build, objects] of Object.entries(builds)) {
    for (const obj of objects) {
      const r = await server.apply(obj, { namespace: NAMESPACE });
      count++;
      if (r.status !== 200 && r.status !== 201) {
        rejected.push(
          `${build}: ${obj.kind}/${obj.metadata.name}: ${r.status} ${(r.json && r.json.message) || r.text}`,
        );
      } else if (r.warnings.length) {
        rejected.push(`${build}: ${obj.kind}/${obj.metadata.name}: warnings ${r.warnings.join(' | ')}`);
      }
    }
  }
  expect(rejected).toEqual([]);
  expect(count).toBeGreaterThan(100);
}, 180000);

test('dry run stores nothing', async () => {
  const r = await server.request('GET', `/apis/apps/v1/namespaces/${NAMESPACE}/deployments`);
  expect(r.status).toBe(200);
  expect(r.json.items).toEqual([]);
});

describe('the check can fail', () => {
  test('a Deployment whose selector does not match its pod labels is rejected', async () => {
    const d = clone(named(builds.all, 'Deployment', names.APP));
    d.spec.selector.matchLabels = { 'app.kubernetes.io/name': 'something-else' };
    const r = await server.apply(d, { namespace: NAMESPACE });
    expect(r.status).toBe(422);
    expect(r.json.message).toMatch(/`selector` does not match template `labels`/);
  });

  test('a passthrough Route with a path is rejected by the Route CRD', async () => {
    const route = clone(named(builds.all, 'Route', names.routeName('passthrough')));
    route.spec.path = '/api';
    const r = await server.apply(route, { namespace: NAMESPACE });
    expect(r.status).toBe(422);
    expect(r.json.message).toMatch(/passthrough/i);
  });

  test('a TestRun with a value its CRD does not allow is rejected', async () => {
    const tr = clone(builds['all+components'].find((o) => o.kind === 'TestRun'));
    tr.spec.cleanup = 'always'; // k6-operator knows only "post"
    const r = await server.apply(tr, { namespace: NAMESPACE });
    expect(r.status).toBe(422);
    expect(r.json.message).toMatch(/spec\.cleanup/);
  });

  test("the IngressController CRD's CEL rules run: a domain that is no DNS name is rejected", async () => {
    const ic = clone(builds['all+components'].find((o) => o.kind === 'IngressController'));
    ic.spec.domain = 'Router_Lab.apps.example.com';
    const r = await server.apply(ic);
    expect(r.status).toBe(422);
    expect(r.json.message).toMatch(/domain must consist of lower case alphanumeric characters/);
  });

  test('a privileged pod template draws a Pod Security warning', async () => {
    const d = clone(named(builds.all, 'Deployment', names.APP));
    d.spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation = true;
    const r = await server.apply(d, { namespace: NAMESPACE });
    expect([200, 201]).toContain(r.status); // accepted (a Deployment), but not silently
    expect(r.warnings.join(' ')).toMatch(/allowPrivilegeEscalation/);
  });
});
