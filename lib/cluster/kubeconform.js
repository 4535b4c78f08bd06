'use strict';
// kubeconform -strict against the pinned schemas in .tools/schemas. Every kind must have a schema:
// a missing one is an error, never skipped.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { requireTool } = require('../core/tools');
const { schemaLocations, KUBERNETES_SCHEMA_VERSION } = require('../setup/validation-tools');

/**
 * Validates several multi-document YAML texts in one kubeconform run (schemas are compiled once):
 * { name: yamlText } → { name: { ok, resources: [{ kind, name, status, msg }], summary } }.
 */
function validateAll(texts) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-kubeconform-'));
  try {
    const files = {};
    Object.keys(texts).forEach((name, i) => {
      files[name] = path.join(dir, `${i}.yaml`);
      fs.writeFileSync(files[name], texts[name]);
    });
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
    const r = spawnSync(requireTool('kubeconform'), [...args, ...Object.values(files)], {
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
    const results = {};
    for (const [name, file] of Object.entries(files)) {
      const resources = (report.resources || [])
        .filter((x) => x.filename === file)
        .map((x) => ({ kind: x.kind, name: x.name, status: x.status, msg: x.msg }));
      const count = (status) => resources.filter((x) => x.status === status).length;
      const summary = {
        valid: count('statusValid'),
        invalid: count('statusInvalid'),
        errors: count('statusError'),
        skipped: count('statusSkipped'),
      };
      results[name] = { ok: resources.length > 0 && summary.valid === resources.length, resources, summary };
    }
    return results;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Validates one multi-document YAML text. */
const validate = (yamlText) => validateAll({ input: yamlText }).input;

module.exports = { validate, validateAll };
