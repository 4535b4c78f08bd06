'use strict';
// kubeconform -strict on every overlay, with the pinned Kubernetes schemas and the schemas for
// Route, IngressController, BuildConfig, ImageStream, ServiceMonitor and TestRun. A kind without a
// schema is an error, never skipped.
const yaml = require('js-yaml');
const { validate, validateAll } = require('../../lib/cluster/kubeconform');
const { allBuilds } = require('./support/builds');

let builds;
beforeAll(() => {
  builds = allBuilds();
}, 120000);

const toYaml = (objects) => objects.map((o) => yaml.dump(o, { noRefs: true })).join('---\n');
const failures = (report) => report.resources.filter((r) => r.status !== 'statusValid');

test('every overlay, every component and the prefixed fixture validate strictly', () => {
  const kinds = new Set();
  const reports = validateAll(
    Object.fromEntries(Object.entries(builds).map(([name, objects]) => [name, toYaml(objects)])),
  );
  for (const [name, objects] of Object.entries(builds)) {
    const report = reports[name];
    expect({ build: name, failures: failures(report) }).toEqual({ build: name, failures: [] });
    expect({ build: name, ok: report.ok, valid: report.summary.valid }).toEqual({
      build: name,
      ok: true,
      valid: objects.length,
    });
    for (const o of objects) kinds.add(o.kind);
  }
  // The schemas that do not come with Kubernetes were all exercised.
  for (const kind of [
    'Route',
    'IngressController',
    'BuildConfig',
    'ImageStream',
    'ServiceMonitor',
    'TestRun',
  ]) {
    expect(kinds).toContain(kind);
  }
}, 180000);

describe('the check can fail', () => {
  const route = () => ({
    apiVersion: 'route.openshift.io/v1',
    kind: 'Route',
    metadata: { name: 'r' },
    spec: { to: { kind: 'Service', name: 'data-service' }, wildcardPolicy: 'None' },
  });

  test('a valid Route passes (the baseline of the cases below)', () => {
    expect(validate(yaml.dump(route())).ok).toBe(true);
  });

  test('an unknown field is rejected (strict)', () => {
    const r = route();
    r.spec.tsl = { termination: 'edge' };
    const report = validate(yaml.dump(r));
    expect(report.ok).toBe(false);
    expect(failures(report)[0].msg).toMatch(/tsl/);
  });

  test('a wrong enum value is rejected', () => {
    const r = route();
    r.spec.tls = { termination: 'reencrypted' };
    expect(validate(yaml.dump(r)).ok).toBe(false);
  });

  test('a TestRun without parallelism is rejected by the project-written schema', () => {
    const tr = {
      apiVersion: 'k6.io/v1alpha1',
      kind: 'TestRun',
      metadata: { name: 't' },
      spec: { script: { localFile: '/x.js' } },
    };
    expect(validate(yaml.dump(tr)).ok).toBe(false);
    tr.spec.parallelism = 2;
    expect(validate(yaml.dump(tr)).ok).toBe(true);
  });

  test('a kind with no schema is an error, not skipped', () => {
    const report = validate(
      yaml.dump({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }),
    );
    expect(report.ok).toBe(false);
    expect(failures(report)[0].msg).toMatch(/could not find schema/);
  });

  test('a Deployment field in the wrong place is rejected by the Kubernetes schemas', () => {
    const [deployment] = builds.http.filter((o) => o.kind === 'Deployment');
    const bad = JSON.parse(JSON.stringify(deployment));
    bad.spec.template.spec.containers[0].readinessprobe = bad.spec.template.spec.containers[0].readinessProbe;
    expect(validate(yaml.dump(bad)).ok).toBe(false);
  });
});
