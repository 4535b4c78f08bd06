'use strict';
// What lab:up refuses on a real machine: ports in use, and LAB_CPUS under taskset. The knobs and
// preflight's pure checks: options.unit.test.js, preflight.unit.test.js.
const fs = require('node:fs');
const net = require('node:net');
const { execFileSync } = require('node:child_process');
const lab = require('../../lib/lab/index');
const { listRecords } = require('../../lib/lab/common/pids');
const { freePort } = require('../../lib/core/ports');
const { allowedCoreList } = require('../../lib/core/cpus');
const { findTool } = require('../../lib/core/tools');
const { labEnv } = require('./helpers');

const twoCores = allowedCoreList().length >= 2;
// Resolves the knobs in a child process (run under taskset) and prints the placement or the error.
const RESOLVE_PLACEMENT = `
  const { resolveLabOptions } = require(${JSON.stringify(require.resolve('../../lib/lab/common/options'))});
  try { console.log(JSON.stringify(resolveLabOptions(process.env).placement)); }
  catch (err) { console.log(JSON.stringify({ error: err.message })); }`;

describe('lab:up with a port already taken', () => {
  let blocker;
  let port;
  const env = labEnv();

  beforeAll(async () => {
    port = await freePort();
    blocker = net.createServer();
    await new Promise((resolve) => blocker.listen(port, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    fs.rmSync(env.LAB_DIR, { recursive: true, force: true });
  });

  test.each([
    ['LAB_HTTP_PORT', 'router HTTP'],
    ['LAB_STATS_PORT', 'router stats'],
    ['LAB_SERVICE_BASE_PORT', 'data-service-1 HTTP'],
  ])('%s: the message names the port, its use and the knob; nothing starts', async (knob, what) => {
    const attempt = lab.up({ env: { ...env, [knob]: String(port) }, log: () => {} });
    await expect(attempt).rejects.toThrow(`port ${port} (${what}) is already in use`);
    await expect(attempt).rejects.toThrow(`${knob}=<port>`);
    expect(listRecords(env.LAB_DIR)).toEqual([]);
    expect(lab.readLabState(env.LAB_DIR)).toBeNull();
  });
});

describe('knobs under taskset', () => {
  (findTool('taskset') && twoCores ? test : test.skip)(
    'under taskset on the last core only, LAB_CPUS may name that core and no other',
    () => {
      const last = allowedCoreList().at(-1);
      const first = allowedCoreList()[0];
      const resolve = (cpus) =>
        execFileSync(findTool('taskset'), ['-c', String(last), process.execPath, '-e', RESOLVE_PLACEMENT], {
          env: { ...process.env, LAB_CPUS: cpus },
          encoding: 'utf8',
        });
      expect(JSON.parse(resolve(`router=${last}`))).toEqual({
        router: [last],
        service: [],
        redis: [],
        free: [],
      });
      expect(JSON.parse(resolve(`router=${first}`))).toEqual({
        error: `LAB_CPUS names core ${first}, but this process may run on cores ${last} only; expected e.g. router=0,service=1,redis=1 (roles: router, service, redis)`,
      });
    },
  );
});
