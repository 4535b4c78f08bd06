'use strict';
// A command that needs the lab (npm run lab, npm run reliability): the lab up first unless one
// runs, and down again afterwards when the command started it, also on failure or Ctrl-C.
const { up, down } = require('./index');
const { reportError } = require('../core/run-command');

/**
 * Runs `work(state)` with the lab up and resolves the command's exit code: what `work` resolves
 * (default 0), or for a failure what `onError(err)` returns (default: the failure said, then 1,
 * 2 or 130). A lab:down that fails is said too, and turns a success into 1.
 */
async function withLab(name, { signal, onError = (err) => reportError(name, err, signal) }, work) {
  let startedHere = false;
  let exitCode = 0;
  try {
    const state = await up({ signal });
    startedHere = !state.alreadyRunning;
    if (!startedHere) console.log('• The lab was already running: using it, and leaving it up afterwards');
    exitCode = (await work(state)) ?? 0;
  } catch (err) {
    exitCode = onError(err);
  } finally {
    if (startedHere) {
      try {
        await down();
      } catch (err) {
        console.error(`${name}: taking the lab down failed: ${err.message}; run npm run lab:down`);
        exitCode = exitCode || 1;
      }
    }
  }
  return exitCode;
}

module.exports = { withLab };
