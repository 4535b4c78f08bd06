'use strict';
// Pure conversions of API definitions into what the offline manifest checks need: strict JSON
// schemas for kubeconform, and CRDs for the test API server for kinds that OpenShift serves
// natively (BuildConfig, ImageStream) or whose CRD is in no package registry (TestRun).

const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const DEF_PREFIX = '#/definitions/';
const COMBINATORS = new Set(['anyOf', 'oneOf', 'allOf', 'not']);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const refName = (ref) => {
  if (!ref.startsWith(DEF_PREFIX))
    throw new Error(`unsupported $ref ${ref}: only ${DEF_PREFIX}… is resolved`);
  return ref.slice(DEF_PREFIX.length);
};

/** Strict mode as kubeconform -strict expects it: objects with properties reject unknown ones. */
function closeObject(node) {
  if (node.properties && !('additionalProperties' in node) && !node['x-kubernetes-preserve-unknown-fields']) {
    node.additionalProperties = false;
  }
}

/**
 * kubeconform schema from a CRD version's openAPIV3Schema: int-or-string and nullable become
 * plain JSON schema, unknown fields are rejected unless the CRD preserves them. CEL rules
 * (x-kubernetes-validations) are left to the real API server test.
 */
function crdToKubeconform(openAPIV3Schema, { apiVersion, kind }) {
  // Inside anyOf/oneOf/allOf/not a schema only adds constraints to the object it sits on: closing
  // it there would reject every field the branch does not mention.
  const walk = (node, constraint = false) => {
    if (Array.isArray(node)) return node.map((n) => walk(n, constraint));
    if (!isObject(node)) return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' || key.startsWith('x-kubernetes-validations')) continue;
      if (key === 'properties') out[key] = mapValues(value, (v) => walk(v));
      else if (COMBINATORS.has(key)) out[key] = walk(value, true);
      else out[key] = walk(value);
    }
    if (out['x-kubernetes-int-or-string']) {
      delete out.type;
      delete out.anyOf;
      out.oneOf = [{ type: 'string' }, { type: 'integer' }];
    }
    if (out.nullable) {
      if (typeof out.type === 'string') out.type = [out.type, 'null'];
      delete out.nullable;
    }
    if (!constraint) closeObject(out);
    return out;
  };
  return withTypeMeta(walk(openAPIV3Schema), { apiVersion, kind });
}

/**
 * kubeconform schema from an OpenAPI v2 definition: the definitions it reaches are copied into
 * the schema, so the file stands alone.
 */
function openapiToKubeconform(root, definitions, { apiVersion, kind }) {
  const used = new Set();
  const collect = (node) => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (!isObject(node)) return;
    if (typeof node.$ref === 'string') {
      const name = refName(node.$ref);
      if (!definitions[name]) throw new Error(`${kind}: $ref ${node.$ref} is not among the definitions`);
      if (!used.has(name)) {
        used.add(name);
        collect(definitions[name]);
      }
    }
    Object.values(node).forEach(collect);
  };
  collect(root);
  const walk = (node) => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    if (node.format === 'int-or-string') return { oneOf: [{ type: 'string' }, { type: 'integer' }] };
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' || key.startsWith('x-')) continue;
      out[key] = key === 'properties' ? mapValues(value, walk) : walk(value);
    }
    closeObject(out);
    return out;
  };
  const defs = {};
  for (const name of [...used].sort()) {
    defs[name] =
      name === QUANTITY ? { oneOf: [{ type: 'string' }, { type: 'number' }] } : walk(definitions[name]);
  }
  const schema = withTypeMeta(walk(root), { apiVersion, kind });
  if (used.size) schema.definitions = defs;
  return schema;
}

function withTypeMeta(schema, { apiVersion, kind }) {
  const out = { ...schema, properties: { ...schema.properties } };
  out.properties.apiVersion = { type: 'string', enum: [apiVersion] };
  out.properties.kind = { type: 'string', enum: [kind] };
  return out;
}

/**
 * A structural openAPIV3Schema (what apiextensions.k8s.io/v1 requires) from an OpenAPI v2
 * definition: $refs inlined, int-or-string and quantities marked, annotations the CRD schema does
 * not accept dropped. Objects without declared fields keep whatever they hold.
 */
function openapiToStructural(root, definitions) {
  const walk = (node, stack) => {
    if (Array.isArray(node)) return node.map((n) => walk(n, stack));
    if (!isObject(node)) return node;
    if (typeof node.$ref === 'string') {
      const name = refName(node.$ref);
      if (name === INT_OR_STRING || name === QUANTITY) return { 'x-kubernetes-int-or-string': true };
      if (stack.includes(name)) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
      if (!definitions[name]) throw new Error(`$ref ${node.$ref} is not among the definitions`);
      return walk(definitions[name], [...stack, name]);
    }
    if (node.format === 'int-or-string') return { 'x-kubernetes-int-or-string': true };
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' || key === 'default' || key.startsWith('x-') || key === '$comment') continue;
      out[key] = key === 'properties' ? mapValues(value, (v) => walk(v, stack)) : walk(value, stack);
    }
    if (out.type === 'object' && !out.properties && !out.additionalProperties) {
      out['x-kubernetes-preserve-unknown-fields'] = true;
    }
    if (!out.type && !out['x-kubernetes-int-or-string'] && !out['x-kubernetes-preserve-unknown-fields']) {
      out.type = 'object';
      out['x-kubernetes-preserve-unknown-fields'] = true;
    }
    return out;
  };
  const schema = walk(root, []);
  // At the root, metadata is the API server's business: a CRD may not constrain it further.
  if (schema.properties && schema.properties.metadata) schema.properties.metadata = { type: 'object' };
  return schema;
}

/** A namespaced CRD for one served and stored version. */
function crdFor({ group, version, kind, plural, singular, listKind }, openAPIV3Schema) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind, listKind: listKind || `${kind}List`, plural, singular: singular || kind.toLowerCase() },
      versions: [
        {
          name: version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema },
          subresources:
            openAPIV3Schema.properties && openAPIV3Schema.properties.status ? { status: {} } : undefined,
        },
      ],
    },
  };
}

/** kubeconform's file name for a kind: {kind}_{version}.json, lower case. */
const kubeconformFileName = (kind, version) => `${kind.toLowerCase()}_${version}.json`;

function mapValues(obj, fn) {
  const out = {};
  for (const [k, v] of Object.entries(obj)) out[k] = fn(v);
  return out;
}

module.exports = {
  crdToKubeconform,
  openapiToKubeconform,
  openapiToStructural,
  crdFor,
  kubeconformFileName,
  OBJECT_META,
};
