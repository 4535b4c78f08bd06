'use strict';
// The house rule for the options modules: requiring one reads no file and loads no npm package,
// so that every command's --help works in a fresh clone before `npm ci` (and costs nothing).
const fs = require('node:fs');

const READERS = ['readFileSync', 'readdirSync'];
// What jest itself reads to load a module (its sources, a babel configuration) is not the module's work.
const LOADING = /\.(c|m)?js(on)?$|babel\.config|node_modules/;
const read = (spy) => spy.mock.calls.map(([file]) => String(file)).filter((file) => !LOADING.test(file));
const PACKAGES = ['js-yaml', 'ajv/dist/2020'];

test.each(['lab/common', 'matrix', 'reliability', 'route-scale', 'cluster'])(
  'lib/%s/options.js does no work when it is required',
  (area) => {
    const spies = READERS.map((name) => jest.spyOn(fs, name));
    try {
      jest.isolateModules(() => {
        for (const name of PACKAGES) {
          jest.doMock(name, () => {
            throw new Error(`${name} was loaded`);
          });
        }
        require(`../../lib/${area}/options`);
      });
      expect(spies.flatMap(read)).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  },
);
