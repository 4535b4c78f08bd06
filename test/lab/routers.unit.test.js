'use strict';
// The router backends behind one interface (lib/lab/routers.js): each implements all of it, and no
// code outside the backends compares router kinds (it asks the backend instead).
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');
const {
  INTERFACE,
  ROUTER_KINDS,
  routerBackend,
  backendOf,
  requireSupport,
} = require('../../lib/lab/routers');
const { routerKind, unsupportedBy } = require('../../lib/lab/common/router-kinds');

const KINDS = Object.keys(ROUTER_KINDS);
// Where a kind may be named and compared: the backends themselves.
const BACKEND_DIRS = ['lib/lab/template-router/', 'lib/lab/openshift-router/'];
const SOURCE_DIRS = ['lib', 'bin', 'k6', 'data-service/src'];

/** The lines of `text` that compare something with a router kind, or the router's kind with anything. */
function kindComparisons(text, kinds = KINDS) {
  const names = kinds.join('|');
  const patterns = [
    new RegExp(`[=!]==?\\s*(['"\`])(${names})\\1`),
    new RegExp(`(['"\`])(${names})\\1\\s*[=!]==?`),
    new RegExp(`case\\s+(['"\`])(${names})\\1\\s*:`),
    /router\??\.kind\s*[=!]==?|[=!]==?\s*[\w.?]*router\??\.kind\b/,
    /LAB_ROUTER\s*[=!]==?|[=!]==?\s*[\w.?]*LAB_ROUTER\b/,
  ];
  return text.split('\n').filter((line) => patterns.some((p) => p.test(line)));
}

function sourceFiles(dir) {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(rel);
    return rel.endsWith('.js') ? [rel] : [];
  });
}

test('the grep finds each way of comparing router kinds', () => {
  for (const line of [
    "if (state.router.kind === 'openshift') {",
    "const real = process.env.LAB_ROUTER === 'openshift';",
    "router === 'openshift' ? '5.0' : '4.22'",
    "if ('template' !== opts.router) return;",
    "  case 'openshift':",
    'const same = a.router.kind !== b.router.kind;',
    'if (kind === state.router?.kind) {',
  ]) {
    expect(kindComparisons(line)).toEqual([line]);
  }
  expect(kindComparisons("const { kind } = routerKind('openshift');\nif (o.kind === 'Route') x();")).toEqual(
    [],
  );
});

test('no code outside the router backends compares router kinds', () => {
  const found = SOURCE_DIRS.flatMap(sourceFiles)
    .filter((file) => !BACKEND_DIRS.some((dir) => file.startsWith(dir)))
    .flatMap((file) =>
      kindComparisons(fs.readFileSync(path.join(ROOT, file), 'utf8')).map((l) => `${file}: ${l.trim()}`),
    );
  expect(found).toEqual([]);
});

test.each(KINDS)('the %s backend implements the whole interface, and its kind.js', (kind) => {
  const backend = routerBackend(kind);
  expect(backend.kind).toBe(kind);
  for (const [member, type] of Object.entries(INTERFACE))
    expect([member, typeof backend[member]]).toEqual([member, type]);
  expect(['lab', 'openshift']).toContain(backend.setupFor);
  expect(backend.tools).toContain('k6');
  for (const why of Object.values(backend.unsupported)) expect(why.length).toBeGreaterThan(30);
});

test('a lab.json from before kinds were recorded runs the template router', () => {
  expect(backendOf({}).kind).toBe('template');
  expect(backendOf({ pid: 7 }).processes({ pid: 7 })).toBe(7);
  expect(backendOf({ kind: 'openshift' }).processes({ pid: 7 })).toEqual({ tree: 7 });
});

test('an unknown kind is refused naming the known ones; an unsupported operation says why', () => {
  expect(() => routerKind('nginx')).toThrow(
    "no router backend 'nginx' (LAB_ROUTER is one of template, openshift, gateway)",
  );
  expect(unsupportedBy('template', 'exhaustion')).toBeNull();
  expect(unsupportedBy('openshift', 'exhaustion')).toMatch(/maxconn/);
  expect(() => requireSupport('template', 'route-scale')).toThrow(
    /^route-scale with LAB_ROUTER=template: it measures/,
  );
  expect(() => requireSupport('openshift', 'route-scale')).not.toThrow();
  expect(() => requireSupport('gateway', 'route-scale')).toThrow(
    /^route-scale with LAB_ROUTER=gateway: .*LAB_ROUTES=N npm run lab:up, then npm run lab:admission/,
  );
});
