'use strict';
// Settings the cluster commands share (lib/core/settings.js declarations); each command adds its
// own help text, since the same option means a slightly different thing to each.
const names = require('./names');
const { OVERLAYS } = require('./kustomize');

const OVERLAY = {
  name: 'overlay',
  flag: '--overlay',
  arg: 'NAME',
  type: 'enum',
  choices: OVERLAYS,
  default: 'all',
};

// "current" is resolved with oc when the command runs, not while parsing (--help needs no cluster).
const NAMESPACE = {
  name: 'namespace',
  flag: '--namespace',
  arg: 'NS',
  type: 'string',
  default: names.DEFAULT_NAMESPACE,
};

module.exports = { OVERLAY, NAMESPACE };
