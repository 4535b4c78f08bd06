'use strict';
// The function length rule `npm run lint` keeps (eslint.config.js), shown refusing a long function.
const path = require('node:path');
const { ESLint } = require('eslint');
const { ROOT } = require('../../lib/core/paths');

describe('functions fit on a screen (ESLint max-lines-per-function)', () => {
  // The project's own config, passed in: ESLint's loader imports it dynamically, which Jest's VM refuses.
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: require('../../eslint.config.js'),
  });
  // A function of `lines` lines, its first and last included, as the rule counts them.
  const functionOf = (lines) =>
    `'use strict';\nfunction long() {\n${Array.from({ length: lines - 2 }, (_, i) => `  console.log(${i});`).join('\n')}\n}\nlong();\n`;
  const problems = async (source, filePath) =>
    (await eslint.lintText(source, { filePath: path.join(ROOT, filePath) }))[0].messages.map((m) => m.ruleId);

  test('81 lines of code are refused in a library, 80 are not', async () => {
    expect(await problems(functionOf(81), 'lib/core/long.js')).toContain('max-lines-per-function');
    expect(await problems(functionOf(80), 'lib/core/long.js')).not.toContain('max-lines-per-function');
  });

  test('blank lines and comments do not count', async () => {
    const padded = functionOf(80).replace(/\n {2}console/g, '\n\n  // why\n  console');
    expect(await problems(padded, 'data-service/src/long.js')).not.toContain('max-lines-per-function');
  });

  test("a test file's describe() is a list of cases, not a function", async () => {
    expect(await problems(functionOf(120), 'test/core/long.test.js')).not.toContain('max-lines-per-function');
  });
});
