'use strict';
// Jest's order of the test files: the longest first (FIRST), then by path, so that a run is
// repeatable, except that the files sharing a lab that one of them takes down at its end run
// together, that one last (FINISHERS).
const path = require('node:path');
const BaseSequencer = require('@jest/test-sequencer').default;

/**
 * The longest files, started first (longest first), so that the run does not end on one of them
 * alone: the guide's exercises in one worker, the lab with pods (Size your cluster's page, then its
 * own tests) in another, then the rest.
 */
const FIRST = ['test/guide/exercises.test.js', 'test/node/pods-lab.test.js'];

/** A file whose last test takes a shared lab down, and the files using that lab, to run before it. */
const FINISHERS = {
  'test/lab/openshift-lab.test.js': [
    'test/cluster/default-router.test.js',
    'test/matrix/cluster-target.test.js',
  ],
};

/** `files` (paths relative to the root) in run order. */
function runOrder(files, finishers = FINISHERS, first = FIRST) {
  const present = new Set(files);
  const finisherOf = new Map(
    Object.entries(finishers).flatMap(([finisher, users]) => users.map((u) => [u, finisher])),
  );
  // A user waits for its finisher only when the finisher runs too.
  const waits = (file) => finisherOf.has(file) && present.has(finisherOf.get(file));
  const order = [];
  for (const file of [...files].sort()) {
    if (waits(file)) continue;
    order.push(...(finishers[file] || []).filter((f) => present.has(f)), file);
  }
  // In FIRST's order; the rest keep theirs.
  return [...first.filter((f) => present.has(f)), ...order.filter((f) => !first.includes(f))];
}

// Jest's own sequencer (the documented base for a custom order) keeps its cache and --shard.
class Sequencer extends BaseSequencer {
  sort(tests) {
    const root = (t) => t.context.config.rootDir;
    const byFile = new Map(tests.map((t) => [path.relative(root(t), t.path), t]));
    return runOrder([...byFile.keys()]).map((f) => byFile.get(f));
  }
}

module.exports = Sequencer;
module.exports.runOrder = runOrder;
