'use strict';
// There is no container engine on the development machine, so the image cannot be built here.
// This test checks what matters about the Containerfile, and that the image would hold every
// module the service requires at run time.
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules } = require('node:module');

const ROOT = path.join(__dirname, '..');
const containerfile = fs.readFileSync(path.join(ROOT, 'Containerfile'), 'utf8');
const instructions = containerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
const named = (keyword) => instructions.filter((line) => line.toUpperCase().startsWith(`${keyword} `));

test('the base image is UBI 9 Node.js 20 minimal, pinned to a tag', () => {
  const arg = named('ARG').find((line) => line.startsWith('ARG NODE_IMAGE='));
  expect(arg).toMatch(/^ARG NODE_IMAGE=registry\.access\.redhat\.com\/ubi9\/nodejs-20-minimal:[0-9][\w.-]+$/);
  expect(named('FROM')).toEqual(['FROM ${NODE_IMAGE}']);
});

test('production dependencies come from the lockfile with npm ci --omit=dev', () => {
  expect(named('COPY')[0]).toBe('COPY package.json package-lock.json ./');
  expect(named('RUN').some((line) => /\bnpm ci\b.*--omit=dev/.test(line))).toBe(true);
  expect(containerfile).not.toMatch(/npm install/);
});

test('it runs as a non-root user, exposes both listeners and starts node directly', () => {
  const users = named('USER');
  expect(users[users.length - 1]).toBe('USER 1001');
  expect(named('EXPOSE')).toEqual(['EXPOSE 8080 8443']);
  const entrypoint = named('ENTRYPOINT');
  expect(entrypoint).toEqual(['ENTRYPOINT ["node", "src/server.js"]']);
  expect(named('CMD')).toEqual([]);
  // The last USER comes after everything that needs root.
  const lastUser = instructions.lastIndexOf('USER 1001');
  expect(instructions.slice(lastUser).some((line) => /^(RUN|COPY)/.test(line))).toBe(false);
});

test('the build context leaves out node_modules, tests and the benchmark', () => {
  for (const file of ['.containerignore', '.dockerignore']) {
    const ignored = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules/', 'test/', 'bench/']));
  }
});

test('every module src/ requires is a built-in, a file in src/ or a production dependency', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const production = new Set(Object.keys(pkg.dependencies));
  const builtins = new Set(builtinModules);
  const files = fs.readdirSync(path.join(ROOT, 'src'), { recursive: true }).filter((f) => f.endsWith('.js'));
  expect(files).toContain('server.js');
  const used = new Set();
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, 'src', file), 'utf8');
    for (const [, spec] of text.matchAll(/require\('([^']+)'\)/g)) {
      if (spec.startsWith('.')) {
        const target = path.resolve(path.join(ROOT, 'src', path.dirname(file)), spec);
        expect(target.startsWith(path.join(ROOT, 'src'))).toBe(true);
        continue;
      }
      const name = spec.replace(/^node:/, '');
      if (!builtins.has(name)) used.add(spec.split('/')[0]);
    }
  }
  for (const dep of used) expect(production.has(dep) ? dep : `${dep} (missing from dependencies)`).toBe(dep);
  expect([...used].sort()).toEqual(['express', 'ioredis', 'pino', 'prom-client']);
});
