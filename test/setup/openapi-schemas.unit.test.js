'use strict';
// Unit tests of the schema conversions (pure functions): what kubeconform and the test API
// server get must say the same thing the source definitions say.
const {
  crdToKubeconform,
  openapiToKubeconform,
  openapiToStructural,
  crdFor,
  kubeconformFileName,
} = require('../../lib/setup/openapi-schemas');

const definitions = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
    type: 'object',
    properties: {
      name: { type: 'string' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: 'string' },
  'example.Node': {
    type: 'object',
    description: 'a recursive type',
    properties: {
      child: { $ref: '#/definitions/example.Node' },
      port: { $ref: '#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString' },
    },
  },
  'example.Widget': {
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
      spec: {
        type: 'object',
        'x-kubernetes-list-type': 'atomic',
        properties: {
          size: { $ref: '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity' },
          root: { $ref: '#/definitions/example.Node' },
          raw: { type: 'object' },
        },
      },
    },
  },
};

test('OpenAPI → kubeconform: self-contained, closed objects, int-or-string and quantities widened', () => {
  const s = openapiToKubeconform(definitions['example.Widget'], definitions, {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
  });
  expect(s.properties.kind).toEqual({ type: 'string', enum: ['Widget'] });
  expect(s.properties.apiVersion.enum).toEqual(['example.com/v1']);
  expect(s.properties.spec.additionalProperties).toBe(false);
  expect(Object.keys(s.definitions).sort()).toEqual([
    'example.Node',
    'io.k8s.apimachinery.pkg.api.resource.Quantity',
    'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  ]);
  expect(s.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({
    oneOf: [{ type: 'string' }, { type: 'integer' }],
  });
  expect(s.definitions['io.k8s.apimachinery.pkg.api.resource.Quantity'].oneOf).toHaveLength(2);
  expect(JSON.stringify(s)).not.toMatch(/description|x-kubernetes/);
  // Maps stay open for their values.
  expect(
    s.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties.labels.additionalProperties,
  ).toEqual({
    type: 'string',
  });
});

test('OpenAPI → kubeconform: a $ref to a missing definition is an error naming it', () => {
  const root = { type: 'object', properties: { x: { $ref: '#/definitions/nope.Missing' } } };
  expect(() => openapiToKubeconform(root, {}, { apiVersion: 'v1', kind: 'X' })).toThrow(/nope\.Missing/);
});

test('OpenAPI → structural CRD schema: refs inlined, recursion cut, int-or-string marked, root metadata bare', () => {
  const s = openapiToStructural(definitions['example.Widget'], definitions);
  expect(JSON.stringify(s)).not.toMatch(/\$ref|description|x-kubernetes-list-type/);
  expect(s.properties.metadata).toEqual({ type: 'object' });
  expect(s.properties.spec.properties.size).toEqual({ 'x-kubernetes-int-or-string': true });
  expect(s.properties.spec.properties.raw).toEqual({
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  });
  const root = s.properties.spec.properties.root;
  expect(root.properties.port).toEqual({ 'x-kubernetes-int-or-string': true });
  expect(root.properties.child).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
});

test('CRD → kubeconform: nullable, int-or-string, preserve-unknown and combinators handled', () => {
  const s = crdToKubeconform(
    {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-validations': [{ rule: 'true' }],
          properties: {
            a: { type: 'string', nullable: true },
            b: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
            free: {
              type: 'object',
              properties: { x: { type: 'string' } },
              'x-kubernetes-preserve-unknown-fields': true,
            },
          },
          anyOf: [{ properties: { a: { maxLength: 0 } } }],
        },
      },
    },
    { apiVersion: 'example.com/v1', kind: 'Thing' },
  );
  const spec = s.properties.spec;
  expect(spec.additionalProperties).toBe(false);
  expect(spec['x-kubernetes-validations']).toBeUndefined();
  expect(spec.properties.a.type).toEqual(['string', 'null']);
  expect(spec.properties.b).toEqual({
    'x-kubernetes-int-or-string': true,
    oneOf: [{ type: 'string' }, { type: 'integer' }],
  });
  expect(spec.properties.free.additionalProperties).toBeUndefined();
  // A constraint branch must not close the object: it would reject every field it does not name.
  expect(spec.anyOf[0].additionalProperties).toBeUndefined();
});

test('crdFor and file names', () => {
  const crd = crdFor(
    { group: 'k6.io', version: 'v1alpha1', kind: 'TestRun', plural: 'testruns' },
    { type: 'object', properties: { status: { type: 'object' } } },
  );
  expect(crd.metadata.name).toBe('testruns.k6.io');
  expect(crd.spec.names).toEqual({
    kind: 'TestRun',
    listKind: 'TestRunList',
    plural: 'testruns',
    singular: 'testrun',
  });
  expect(crd.spec.versions[0].subresources).toEqual({ status: {} });
  expect(kubeconformFileName('IngressController', 'v1')).toBe('ingresscontroller_v1.json');
});

test('the TestRun schema written for this project is where setup reads it', () => {
  const { TESTRUN_SOURCE } = require('../../lib/setup/validation-tools');
  const schema = JSON.parse(require('node:fs').readFileSync(TESTRUN_SOURCE, 'utf8'));
  expect(schema.description).toMatch(/^TestRun \(k6.io\/v1alpha1\)/);
});
