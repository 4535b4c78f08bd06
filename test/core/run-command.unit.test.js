'use strict';
// How every command ends (lib/core/run-command.js): the exit code and the one line it prints for
// what main returns or throws.
const { runCommand, reportError } = require('../../lib/core/run-command');
const { UsageError } = require('../../lib/core/settings');

let printed;
let spy;
beforeEach(() => {
  printed = [];
  spy = jest.spyOn(console, 'error').mockImplementation((...args) => printed.push(args.join(' ')));
});
afterEach(() => {
  spy.mockRestore();
  process.exitCode = undefined;
});

/** The exit code and the printed lines of one command run. */
async function ending(main) {
  process.exitCode = undefined;
  await runCommand('demo', main);
  const code = process.exitCode;
  process.exitCode = undefined;
  return { code, printed };
}

test('the code main returns, sync or async; nothing returned leaves it unset (0)', async () => {
  expect(await ending(() => 3)).toEqual({ code: 3, printed: [] });
  expect(await ending(async () => 0)).toEqual({ code: 0, printed: [] });
  expect(await ending(() => undefined)).toEqual({ code: undefined, printed: [] });
});

test('a usage error exits 2, any other error 1, each printed under the command name without a stack', async () => {
  expect(await ending(() => Promise.reject(new UsageError('--cells selects no cell')))).toEqual({
    code: 2,
    printed: ['demo: --cells selects no cell'],
  });
  printed.length = 0;
  expect(
    await ending(() => {
      throw new Error('oc is not logged in');
    }),
  ).toEqual({ code: 1, printed: ['demo: oc is not logged in'] });
});

test('an interrupt exits 130 and says so', async () => {
  const controller = new AbortController();
  controller.abort();
  expect(await ending(async () => controller.signal.throwIfAborted())).toEqual({
    code: 130,
    printed: ['demo: interrupted'],
  });
});

test('a bug (TypeError) also prints its stack, to say where', async () => {
  const { code } = await ending(() => null.field);
  expect(code).toBe(1);
  expect(printed[0]).toMatch(/^demo: Cannot read properties of null/);
  expect(printed[1]).toMatch(/at .*run-command\.unit\.test\.js/);
});

test('any failure once the signal is aborted is "interrupted" and exits 130 (reportError)', () => {
  expect(reportError('reliability', new Error('k6 died'), AbortSignal.abort())).toBe(130);
  expect(reportError('lab', Object.assign(new Error('bad --vus'), { exitCode: 2 }))).toBe(2);
  expect(printed).toEqual(['reliability: interrupted', 'lab: bad --vus']);
});
