'use strict';
// The in-cluster TestRun runs the same k6 files as the workstation: k6/kustomization.yaml lists them
// by hand (kustomize has no globs) and the TestRun's volume rebuilds lib/ from flat ConfigMap keys,
// so both lists are compared with k6/ and with what the scripts import.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');
const { buildObjects, compose } = require('../../lib/cluster/kustomize');

const K6_DIR = path.join(ROOT, 'k6');

/** Files under k6/ that k6 loads: scripts and their data, not tests, docs or kustomize files. */
function k6Files(dir = K6_DIR) {
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['test', '__tests__', 'node_modules'].includes(entry.name)) files.push(...k6Files(full));
    } else if (/\.(js|json)$/.test(entry.name) && !/\.test\.js$/.test(entry.name)) {
      files.push(path.relative(K6_DIR, full).split(path.sep).join('/'));
    }
  }
  return files.sort();
}

/** The relative files a script imports or open()s, resolved from its own folder. */
function dependencies(file) {
  const text = fs.readFileSync(path.join(K6_DIR, file), 'utf8');
  const refs = [
    ...text.matchAll(/(?:\bfrom\s+|\bimport\s+|\brequire\(\s*|\bopen\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g),
  ].map((m) => m[1]);
  return refs.map((r) => path.posix.normalize(path.posix.join(path.posix.dirname(file), r)));
}

let configMap;
let testRun;
beforeAll(() => {
  [configMap] = buildObjects(K6_DIR).filter((o) => o.kind === 'ConfigMap');
  const composed = compose({ overlay: 'all', components: ['k6-testrun'] });
  try {
    [testRun] = buildObjects(composed.dir).filter((o) => o.kind === 'TestRun');
  } finally {
    composed.cleanup();
  }
}, 60000);

const itemsByPath = () => {
  const scripts = testRun.spec.runner.volumes.find((v) => v.name === 'scripts');
  return Object.fromEntries(scripts.configMap.items.map((i) => [i.path, i.key]));
};

test('every k6 file is in the ConfigMap, byte for byte', () => {
  const files = k6Files();
  expect(files.length).toBeGreaterThan(3);
  const items = itemsByPath();
  for (const file of files) {
    const key = items[file];
    expect({ file, mounted: Boolean(key) }).toEqual({ file, mounted: true });
    expect({ file, same: configMap.data[key] === fs.readFileSync(path.join(K6_DIR, file), 'utf8') }).toEqual({
      file,
      same: true,
    });
  }
});

test('the TestRun volume maps every ConfigMap key back to its path, and nothing else', () => {
  const items = itemsByPath();
  expect(Object.values(items).sort()).toEqual(Object.keys(configMap.data).sort());
  expect(Object.keys(items).sort()).toEqual(k6Files());
});

test("every import and open() of every script resolves inside the runners' /scripts tree", () => {
  const mounted = new Set(Object.keys(itemsByPath()));
  for (const file of k6Files().filter((f) => f.endsWith('.js'))) {
    for (const dep of dependencies(file)) {
      expect({ file, dep, mounted: mounted.has(dep) }).toEqual({ file, dep, mounted: true });
    }
  }
  const mount = testRun.spec.runner.volumeMounts.find((m) => m.name === 'scripts').mountPath;
  expect(mounted.has(path.posix.relative(mount, testRun.spec.script.localFile))).toBe(true);
});
