'use strict';
// npm run lab's work: setup if needed, the lab up, the router matrix and its report, and the lab
// down again if this run started it, also on failure or Ctrl-C.
const { reportError } = require('../core/run-command');

// Plain data: what each router backend needs installed, readable before setup installs anything.
const { routerKind } = require('../lab/common/router-kinds');

/** Resolves the exit code; `signal` aborts it (Ctrl-C). */
async function runLab(opts, signal) {
  let lib;
  try {
    // Required only now: setup is work a bad option or --help need not load, and it may just have
    // installed the npm packages the others load.
    const { setupIfNeeded } = require('../setup/install');
    const router = routerKind(process.env.LAB_ROUTER || undefined);
    await setupIfNeeded(router.setupFor, {
      required: router.tools,
      again: 'npm run lab',
      signal,
    });
    lib = { ...require('../lab/with-lab'), ...require('./run'), ...require('./finish') };
  } catch (err) {
    return reportError('lab', err, signal);
  }
  const { withLab, runMatrix, finishRun, finishInterrupted } = lib;
  const onError = (err) => {
    const code = reportError('lab', err, signal);
    finishInterrupted(opts, err);
    return code;
  };
  return withLab('lab', { signal, onError }, async () => {
    const { dir, results } = await runMatrix(opts, { signal });
    finishRun({ opts, dir, results });
  });
}

module.exports = { runLab };
