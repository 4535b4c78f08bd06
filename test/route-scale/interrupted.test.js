'use strict';
// route-scale stopped (Ctrl-C is an abort of its signal) just after the next count's lab started
// beside this count's phases (--quick's --next-lab beside): the documents keep what finished, and
// both labs are down, the one it was starting included.
const fs = require('node:fs');
const path = require('node:path');
const { labEnv, useTempDir } = require('../lab/helpers');
const { rememberEnv } = require('../support/lab-pool');
const { listRecords, processState } = require('../../lib/lab/common/pids');
const { COMMAND } = require('../../lib/route-scale/options');
const { runRouteScale, besideLabDir } = require('../../lib/route-scale/run');

jest.setTimeout(180000);

const describeAsRoot = process.getuid() === 0 ? describe : describe.skip;

describeAsRoot('route-scale --quick, interrupted', () => {
  const out = useTempDir('rlab-route-scale-out-');
  const env = labEnv({}, useTempDir('rlab-route-scale-'));

  test('while the next count’s lab starts beside: the run kept as incomplete, both labs down', async () => {
    const opts = COMMAND.parse(['--quick', '--out', out]).values;
    const beside = besideLabDir(env.LAB_DIR, opts.routes[1]);
    // Whatever a failure leaves is taken down at the end of the Jest run.
    for (const dir of [env.LAB_DIR, beside]) rememberEnv({ ...env, LAB_DIR: dir });
    const controller = new AbortController();
    // Aborted once the next lab has started a process (its first log): a fixed 2 s after the line
    // found no process started yet on a busy host, with three Jest workers.
    let watch;
    const log = (line) => {
      if (!/the next count's lab starts now/.test(line)) return;
      watch = setInterval(() => {
        const logs = path.join(beside, 'logs');
        if (fs.existsSync(logs) && fs.readdirSync(logs).length) controller.abort();
      }, 100);
    };
    const err = await runRouteScale(opts, { env, log, signal: controller.signal })
      .catch((e) => e)
      .finally(() => clearInterval(watch));
    expect(err.name).toBe('AbortError');
    expect(err.run.doc).toMatchObject({ complete: false, counts: [] });
    expect(fs.existsSync(path.join(out, 'route-scale.json'))).toBe(true);
    for (const dir of [env.LAB_DIR, beside]) {
      // Each lab had started processes (their logs are kept): none is left.
      expect(fs.readdirSync(path.join(dir, 'logs')).length).toBeGreaterThan(0);
      const running = listRecords(dir).filter((r) => processState(r) === 'running');
      expect({ dir, running }).toEqual({ dir, running: [] });
      expect(fs.existsSync(path.join(dir, 'lab.json'))).toBe(false);
    }
  });
});
