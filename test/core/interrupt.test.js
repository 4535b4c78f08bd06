'use strict';
const path = require('node:path');
const { startChild } = require('../../lib/core/processes');

const INTERRUPT = path.join(__dirname, '../../lib/core/interrupt.js');

// A command that waits for its signal to abort, then cleans up in `finally`, as lab:up does.
const COMMAND = `
const { withInterrupt } = require(${JSON.stringify(INTERRUPT)});
withInterrupt((signal) => new Promise((resolve) => {
  const work = setInterval(() => {}, 1000); // pending work keeps the process alive
  console.log('started');
  signal.addEventListener('abort', () => {
    clearInterval(work);
    resolve('aborted');
  });
}), { message: 'interrupted, cleaning up' })
  .then((result) => {
    console.log(result, 'handlers left:', process.listenerCount('SIGINT') + process.listenerCount('SIGTERM'));
  });
`;

describe('withInterrupt', () => {
  test.each(['SIGINT', 'SIGTERM'])('%s aborts the task once, then the handlers are gone', async (signal) => {
    const child = startChild(process.execPath, ['-e', COMMAND]);
    const deadline = Date.now() + 10000;
    while (!child.output().includes('started') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    child.child.kill(signal);
    const { code } = await child.exited;
    expect(code).toBe(0);
    expect(child.output()).toContain('interrupted, cleaning up');
    expect(child.output()).toContain('aborted handlers left: 0');
  });
});
