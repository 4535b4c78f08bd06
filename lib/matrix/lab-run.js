'use strict';
// npm run lab's work: setup if needed, the lab up, the router matrix and its report, and the lab
// down again if this run started it, also on failure or Ctrl-C.
const { reportError } = require('../core/run-command');

const NEEDED = ['k6', 'haproxy', 'redis-server', 'openssl'];
// LAB_ROUTER=openshift: the API server, kubectl and the router's build besides.
const NEEDED_OPENSHIFT = [...NEEDED, 'kube-apiserver', 'etcd', 'kubectl'];

/** Resolves the exit code; `signal` aborts it (Ctrl-C). */
async function runLab(opts, signal) {
  let lib;
  try {
    // Required only now: setup is work a bad option or --help need not load, and it may just have
    // installed the npm packages the others load.
    const { setupIfNeeded } = require('../setup/install');
    const real = process.env.LAB_ROUTER === 'openshift';
    await setupIfNeeded(real ? 'openshift' : 'lab', {
      required: real ? NEEDED_OPENSHIFT : NEEDED,
      again: 'npm run lab',
      signal,
    });
    lib = { ...require('../lab/shared/with-lab'), ...require('./run'), ...require('./finish') };
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

module.exports = { runLab, NEEDED_OPENSHIFT };
