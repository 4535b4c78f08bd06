#!/usr/bin/env node
'use strict';
// `npm run setup`: installs what is missing, idempotently, and prints where each tool is.
const { defineCommand, commandLine } = require('../lib/core/settings');
const { runCommand } = require('../lib/core/run-command');
const { LEVELS, EXTRAS, setup } = require('../lib/setup/install');

const NAME = 'setup';
const COMMAND = defineCommand({
  usage: `npm run setup -- [--for ${LEVELS.join('|')}] [--with ${EXTRAS.join(',')}] [--check]`,
  description:
    'Installs what the project needs and is missing, then prints where each tool is. The Go tools ' +
    'it builds are kept in ~/.cache/router-lab/tools by their inputs, for the next clone ' +
    '(ROUTER_LAB_TOOL_CACHE: another folder, or off).',
  settings: [
    {
      name: 'level',
      flag: '--for',
      arg: 'LEVEL',
      type: 'enum',
      choices: LEVELS,
      default: 'test',
      help:
        'only what LEVEL needs: service (data service and its tests), lab (the local router lab ' +
        "and the matrix), test (every test, and the node LAB_PODS=yes runs: containerd, kubelet, the pods' images), openshift (also the real openshift-router of " +
        'OpenShift 5.0 and 4.22, built from source; ROUTER_LAB_MIRROR names a source mirror)',
    },
    {
      name: 'extras',
      flag: '--with',
      arg: 'LIST',
      type: 'list',
      choices: EXTRAS,
      help:
        'also what only a comparison needs, built on request: haproxy-3.0 (the 3.0 LTS branch, ' +
        '.tools/bin/haproxy-3.0, about a minute; --for test builds it too); haproxy-2.8 and haproxy-3.4 (2.8.10 ' +
        'as OpenShift 4.16-4.22 run 2.8, and 3.4.0, from upstream release commits: the mirror for 2.8; ' +
        '.tools/bin/haproxy-2.8, -3.4, about two minutes each); openssl-3.5 (the router HAProxy on ' +
        "Debian 13's OpenSSL 3.5, .tools/bin/haproxy-openssl-3.5, about five minutes)",
    },
    {
      name: 'check',
      flag: '--check',
      type: 'boolean',
      help: 'install nothing; exit 1 if anything is missing',
    },
  ],
});

async function main() {
  const opts = commandLine(COMMAND, process.argv.slice(2), { name: NAME }).values;
  const problems = await setup(opts);
  if (!problems.length) return 0;
  console.error(`\nsetup: ${problems.length} problem(s):\n${problems.map((p) => `  ✗ ${p}`).join('\n')}`);
  return 1;
}

runCommand(NAME, main);
