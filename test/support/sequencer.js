'use strict';
// Jest's order of the test files: the longest first (FIRST), then by path, so that a run is
// repeatable, and last the files that take a shared lab down at their end (FINISHERS), once that
// lab's users are done with it (lab-pool's usersDone).
const path = require('node:path');
const BaseSequencer = require('@jest/test-sequencer').default;
const { USERS_ENV } = require('./lab-pool');

/**
 * The longest files, started first (longest first), so that the run does not end on one of them
 * alone: the guide's exercises in one worker, the lab with pods (Size your cluster's page, then its
 * own tests) in another, then the rest.
 */
const FIRST = ['test/guide/exercises.test.js', 'test/node/pods-lab.test.js'];

/**
 * A file whose last test takes a shared lab down, and the files using that lab. The users keep
 * their places, apart, so that they do not wait for each other's use of the lab; the finisher runs
 * last and waits until they are done.
 */
const FINISHERS = {
  'test/lab/openshift-lab.test.js': [
    'test/cluster/default-router.test.js',
    'test/lab/idle-close.test.js',
    'test/matrix/cluster-target.test.js',
  ],
};

/** `files` (paths relative to the root) in run order. */
function runOrder(files, finishers = FINISHERS, first = FIRST) {
  const present = new Set(files);
  const last = Object.keys(finishers).filter((f) => present.has(f) && !first.includes(f));
  const rest = [...files].sort().filter((f) => !first.includes(f) && !last.includes(f));
  return [...first.filter((f) => present.has(f)), ...rest, ...last];
}

/** For each finisher in the run, its lab's users that run too (lab-pool's USERS_ENV). */
function usersInRun(files, finishers = FINISHERS) {
  const present = new Set(files);
  return Object.fromEntries(
    Object.entries(finishers)
      .filter(([finisher]) => present.has(finisher))
      .map(([finisher, users]) => [finisher, users.filter((u) => present.has(u))]),
  );
}

// Jest's own sequencer (the documented base for a custom order) keeps its cache and --shard.
class Sequencer extends BaseSequencer {
  sort(tests) {
    const root = (t) => t.context.config.rootDir;
    const byFile = new Map(tests.map((t) => [path.relative(root(t), t.path), t]));
    // Jest sorts before globalSetup and starts its workers after it: they inherit this.
    process.env[USERS_ENV] = JSON.stringify(usersInRun([...byFile.keys()]));
    return runOrder([...byFile.keys()]).map((f) => byFile.get(f));
  }
}

module.exports = Sequencer;
module.exports.runOrder = runOrder;
module.exports.usersInRun = usersInRun;
