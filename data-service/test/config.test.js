'use strict';
// The real server process refusing to start on a bad value, with a message that names the
// variable (the validations themselves: config.unit.test.js).
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { SERVER } = require('./helpers');

const run = promisify(execFile);

describe('the server process', () => {
  test.each([
    ['PORT', 'eighty'],
    ['REDIS_CLUSTER_NODES', 'redis-0'],
    ['LOG_LEVEL', 'loud'],
    ['DRAIN_DELAY_MS', '-5'],
  ])('exits non-zero on %s=%j and says which variable is wrong', async (name, value) => {
    const error = await run(process.execPath, [SERVER], {
      env: { PATH: process.env.PATH, [name]: value },
      timeout: 10000,
    }).then(
      () => null,
      (err) => err,
    );
    expect(error).not.toBeNull();
    expect(error.code).toBe(78);
    expect(error.stderr).toMatch(new RegExp(`^data-service: invalid configuration: ${name} `));
    expect(error.stdout).toBe('');
  });
});
