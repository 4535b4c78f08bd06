'use strict';
const js = require('@eslint/js');
const globals = require('globals');
const prettier = require('eslint-config-prettier');

const K6_GLOBALS = {
  __ENV: 'readonly',
  __VU: 'readonly',
  __ITER: 'readonly',
  open: 'readonly',
  console: 'readonly',
};

module.exports = [
  { ignores: ['**/node_modules/**', '.lab/**', '.tools/**', 'results/**', 'coverage/**'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'commonjs', globals: { ...globals.node } },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
      'prefer-const': 'error',
      eqeqeq: ['error', 'always'],
      strict: ['error', 'global'],
    },
  },
  {
    // A function fits on a screen. A test file's describe() is a list of cases, not a function.
    files: ['**/*.js'],
    ignores: ['**/*.test.js'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['**/test/**/*.js', '**/*.test.js'],
    languageOptions: { globals: { ...globals.jest } },
  },
  {
    // k6 scripts are ES modules run by k6's JavaScript runtime, not by Node.
    files: ['k6/*.js'],
    languageOptions: { sourceType: 'module', globals: K6_GLOBALS },
    rules: { strict: 'off' },
  },
  {
    // k6/lib is CommonJS, one module system for both runtimes: k6 imports it, Node requires it.
    files: ['k6/lib/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { ...K6_GLOBALS, require: 'readonly', module: 'writable' },
    },
  },
  prettier,
];
