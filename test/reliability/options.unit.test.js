'use strict';
// npm run reliability's settings (lib/reliability/options.js): they name the scenarios without
// loading them, so the names are held to the catalogue's here.
const { SCENARIO_NAMES, COMMAND } = require('../../lib/reliability/options');
const SCENARIOS = require('../../lib/reliability/scenarios');

test('the declared scenario names are the catalogue’s, in its order', () => {
  expect(SCENARIO_NAMES).toEqual(SCENARIOS.map((s) => s.name));
});

test('--scenarios takes those names only; --quick shortens the defaults', () => {
  expect(COMMAND.parse(['--scenarios', 'soak,redis-kill']).values.scenarios).toEqual(['redis-kill', 'soak']);
  expect(() => COMMAND.parse(['--scenarios', 'nope'])).toThrow(
    /--scenarios: 'nope' is not one of router-reload, /,
  );
  expect(COMMAND.parse([]).values).toMatchObject({ rate: 200, reloads: 10, soakSeconds: 60 });
  expect(COMMAND.parse(['--quick']).values).toMatchObject({ rate: 100, reloads: 3, soakSeconds: 20 });
});

test('requiring the settings loads neither a scenario nor the runner (--help before npm ci)', () => {
  jest.isolateModules(() => {
    for (const module of ['../../lib/reliability/scenarios', '../../lib/reliability/run']) {
      jest.doMock(module, () => {
        throw new Error(`${module} was loaded`);
      });
    }
    const { COMMAND: fresh } = require('../../lib/reliability/options');
    expect(fresh.parse(['--quick']).values.scenarios).toEqual(SCENARIO_NAMES);
  });
});
