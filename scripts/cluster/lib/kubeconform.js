'use strict';
// kubeconform -strict against the pinned schemas in .tools/schemas. Every kind must have a schema:
// a missing one is an error, never skipped.
const { spawnSync } = require('node:child_process');
const { requireTool } = require('../../lib/tools');
const { schemaLocations, KUBERNETES_SCHEMA_VERSION } = require('./validation-tools');

/**
 * Validates multi-document YAML. Returns { ok, resources: [{ kind, name, status, msg }], summary }.
 */
function validate(yamlText) {
  const args = [
    '-strict',
    '-summary',
    '-verbose',
    '-output',
    'json',
    '-kubernetes-version',
    KUBERNETES_SCHEMA_VERSION,
  ];
  for (const location of schemaLocations()) args.push('-schema-location', location);
  args.push('-');
  const r = spawnSync(requireTool('kubeconform'), args, {
    input: yamlText,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  let report;
  try {
    report = JSON.parse(r.stdout);
  } catch {
    throw new Error(
      `kubeconform gave no JSON report (exit ${r.status}): ${(r.stderr || r.stdout || '').trim()}`,
    );
  }
  const resources = (report.resources || []).map((x) => ({
    kind: x.kind,
    name: x.name,
    status: x.status,
    msg: x.msg,
  }));
  const summary = report.summary || {};
  const ok =
    r.status === 0 &&
    (summary.invalid || 0) === 0 &&
    (summary.errors || 0) === 0 &&
    (summary.skipped || 0) === 0;
  return { ok, resources, summary };
}

module.exports = { validate };
