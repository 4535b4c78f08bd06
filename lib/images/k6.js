'use strict';
// The images k6-operator's Jobs run (cluster:k6 on the lab): the runner, the pinned k6 on the
// base, as grafana/k6 is (k6 as entrypoint, a non-root user); the starter, the base's curl as the
// operator's starter image runs it (user 65532).
const crypto = require('node:crypto');
const { findTool, requireTool, toolVersion } = require('../core/tools');
const { commitFrom } = require('./buildah');

/** grafana/k6's user, and k6-operator's starter's (Dockerfile.starter): both non-root. */
const RUNNER_USER = '12345';
const STARTER_USER = '65532';

const keyOf = (...parts) => crypto.createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 12);

/**
 * The runner's tag: the base it builds FROM and the k6 it copies (`k6 version`'s line). Before
 * setup has installed k6 the tag names no archive, so the image counts as not built yet.
 */
function k6RunnerKey(baseRef) {
  const k6 = findTool('k6');
  return keyOf(baseRef, (k6 && toolVersion(k6, ['version'])) || 'no k6 yet');
}

const k6StarterKey = (baseRef) => keyOf(baseRef, STARTER_USER);

function buildK6Runner(ref, { baseRef, log }) {
  commitFrom(ref, baseRef, { what: 'k6 runner', log }, (step, ctr) => {
    step(['copy', '--quiet', ctr, requireTool('k6'), '/usr/local/bin/k6'], 'k6');
    const settings = ['--user', RUNNER_USER, '--workingdir', '/tmp', '--entrypoint', '["k6"]', '--cmd', ''];
    step(['config', ...settings, ctr], 'its user and entrypoint');
  });
}

function buildK6Starter(ref, { baseRef, log }) {
  commitFrom(ref, baseRef, { what: 'k6 starter', log }, (step, ctr) => {
    step(['config', '--user', STARTER_USER, ctr], 'its user');
  });
}

module.exports = { buildK6Runner, buildK6Starter, k6RunnerKey, k6StarterKey, RUNNER_USER };
