'use strict';
// npm packages (package.json's dependencies) required when first used, not when a module is
// loaded: every command's --help works in a fresh clone before `npm ci`, and a command that
// needs a package that is not installed says what to run (exit 2) instead of a stack trace.

const INSTALL = 'run npm ci (or npm test, which installs everything)';

/** The package a module name is in: 'ajv/dist/2020' → 'ajv', '@scope/pkg/x' → '@scope/pkg'. */
const packageOf = (name) =>
  name
    .split('/')
    .slice(0, name.startsWith('@') ? 2 : 1)
    .join('/');

/** A package that is not installed: the user's to fix, like a usage error (exit 2). */
class MissingDependencyError extends Error {
  constructor(name, cause) {
    super(`${packageOf(name)} is not installed: ${INSTALL}`, { cause });
    this.name = 'MissingDependencyError';
    this.exitCode = 2;
  }
}

/**
 * require(name) for a package (or a file of one: 'ajv/dist/2020'); MissingDependencyError when it
 * is missing itself. A package that is there but misses one of its own files is a broken install:
 * its error passes unchanged.
 */
function requireDependency(name) {
  try {
    return require(name);
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND' || !err.message.startsWith(`Cannot find module '${name}'`)) throw err;
    throw new MissingDependencyError(name, err);
  }
}

/**
 * A package loaded on its first use: `const yaml = lazyDependency('js-yaml')` at the top of a
 * module, then `yaml.load(...)` as usual; only that call requires the package.
 */
function lazyDependency(name) {
  let loaded;
  return new Proxy(
    {},
    {
      get: (_target, key) => {
        loaded ??= requireDependency(name);
        return loaded[key];
      },
    },
  );
}

module.exports = { requireDependency, lazyDependency, MissingDependencyError, INSTALL };
