'use strict';
// underLoad's timing contract, with a load that only waits: the fault runs beside it, `end` comes
// endAfterMs after the fault, and a failed fault stops the load.
const { underLoad } = require('../../lib/reliability/load');

/** A load that runs until it is ended (resolving) or stopped (rejecting), like k6 does. */
const waitingLoad = (signal, end) =>
  new Promise((resolve, reject) => {
    const started = Date.now();
    end.addEventListener('abort', () => resolve({ endedAfterMs: Date.now() - started }));
    signal.addEventListener('abort', () => reject(signal.reason));
  });

test('the load is ended endAfterMs after the fault is done, and both results are kept', async () => {
  const run = await underLoad({
    load: waitingLoad,
    fault: () => new Promise((resolve) => setTimeout(() => resolve('done'), 30)),
    endAfterMs: 60,
  });
  expect(run.fault).toBe('done');
  expect(run.load.endedAfterMs).toBeGreaterThanOrEqual(85);
});

test('without endAfterMs the load is never ended early; a failed fault stops it and is what rejects', async () => {
  let ended = false;
  const load = (signal, end) => {
    end.addEventListener('abort', () => (ended = true));
    return waitingLoad(signal, end);
  };
  await expect(underLoad({ load, fault: () => Promise.reject(new Error('fault broke')) })).rejects.toThrow(
    'fault broke',
  );
  expect(ended).toBe(false);
});
