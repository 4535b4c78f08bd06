'use strict';
// The tool cache on a folder of the test's: a build runs once per key, its files and folders come
// back with their modes, a failed build keeps nothing, and 'off' always builds.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { cachedBuild, toolCacheDir, CACHE_ENV, UNUSED_DAYS } = require('../../lib/setup/tool-cache');

let root;
let env;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-tool-cache-'));
  env = { [CACHE_ENV]: path.join(root, 'cache') };
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A build that writes an executable file and a folder, counting its runs. */
function fakeTool(version) {
  const bin = path.join(root, 'tools', 'bin', 'tool');
  const dir = path.join(root, 'tools', 'tool-files');
  const runs = [];
  const build = () => {
    runs.push(version);
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    fs.writeFileSync(bin, `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
    fs.mkdirSync(path.join(dir, 'crd'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'crd', 'a.yaml'), `version: ${version}\n`);
  };
  const install = (key = { version }) =>
    cachedBuild({ what: 'tool', key, recipe: __filename, outputs: [bin, dir], env }, build);
  return { bin, dir, runs, install };
}

test('the same inputs build once; the next setup of a fresh .tools copies files and folders back', async () => {
  const tool = fakeTool('1.0');
  expect(await tool.install()).toBe(false);
  fs.rmSync(path.join(root, 'tools'), { recursive: true });
  expect(await tool.install()).toBe(true);
  expect(tool.runs).toEqual(['1.0']);
  expect(fs.readFileSync(tool.bin, 'utf8')).toMatch(/echo 1\.0/);
  expect(fs.statSync(tool.bin).mode & 0o777).toBe(0o755);
  expect(fs.readFileSync(path.join(tool.dir, 'crd', 'a.yaml'), 'utf8')).toBe('version: 1.0\n');
  // Another key (a new version, another Go) is another build.
  expect(await tool.install({ version: '1.0', go: 'go1.27' })).toBe(false);
  expect(tool.runs).toEqual(['1.0', '1.0']);
});

test('a failed build keeps nothing; an entry left unused is pruned when another is stored', async () => {
  const outputs = [path.join(root, 'never')];
  const broken = cachedBuild({ what: 'broken', key: { v: 1 }, recipe: __filename, outputs, env }, () => {
    throw new Error('compile error');
  });
  await expect(broken).rejects.toThrow('compile error');
  expect(fs.existsSync(env[CACHE_ENV])).toBe(false);
  const old = fakeTool('0.9');
  await old.install();
  const [entry] = fs.readdirSync(env[CACHE_ENV]);
  const longAgo = new Date(Date.now() - (UNUSED_DAYS + 1) * 86400000);
  fs.utimesSync(path.join(env[CACHE_ENV], entry), longAgo, longAgo);
  await fakeTool('1.0').install();
  expect(fs.readdirSync(env[CACHE_ENV])).not.toContain(entry);
  expect(fs.readdirSync(env[CACHE_ENV])).toHaveLength(1);
});

test("'off' builds every time and keeps nothing; the default folder is the user's cache", async () => {
  env = { [CACHE_ENV]: 'off' };
  const tool = fakeTool('1.0');
  await tool.install();
  await tool.install();
  expect(tool.runs).toEqual(['1.0', '1.0']);
  expect(toolCacheDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/router-lab/tools');
  expect(toolCacheDir({})).toBe(path.join(os.homedir(), '.cache', 'router-lab', 'tools'));
});

test('go install’s output is named after the module path, a major-version suffix left out', () => {
  const { installedName } = require('../../lib/setup/go-install');
  expect(installedName('go.k6.io/k6')).toBe('k6');
  expect(installedName('sigs.k8s.io/kustomize/kustomize/v5')).toBe('kustomize');
  expect(installedName('istio.io/istio/pilot/cmd/pilot-discovery')).toBe('pilot-discovery');
});
