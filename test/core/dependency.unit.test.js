'use strict';
// lib/core/dependency.js: npm packages required on first use; a missing one says what to run (exit 2).
const { requireDependency, lazyDependency, MissingDependencyError } = require('../../lib/core/dependency');

test('an installed package is required as usual', () => {
  expect(requireDependency('js-yaml').load('a: 1')).toEqual({ a: 1 });
});

test('a missing package (or a file of one) names the package and what to run, exit 2', () => {
  for (const name of ['no-such-package-x', 'no-such-package-x/dist/y', '@no-such/scope/file']) {
    let err;
    try {
      requireDependency(name);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MissingDependencyError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe(
      `${name.startsWith('@') ? '@no-such/scope' : 'no-such-package-x'} is not installed: ` +
        'run npm ci (or npm test, which installs everything)',
    );
  }
});

test('a lazy package is required on its first use only', () => {
  const missing = lazyDependency('no-such-package-x');
  expect(() => missing.load).toThrow(MissingDependencyError);
  expect(lazyDependency('js-yaml').dump({ a: 1 })).toBe('a: 1\n');
});
