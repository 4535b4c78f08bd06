'use strict';
// The areas' one-way order (drawn in ARCHITECTURE.md): an area may require only the areas above
// it. `npm run lint` refuses an upward require, a cycle between modules, and the service reaching
// outside its folder. test/ may require anything; nothing requires test/ or bin/.
const LAYERS = [
  'k6/lib', // the vocabulary k6 and Node share
  'lib/core',
  'lib/setup',
  'lib/lab',
  'lib/results-model',
  'lib/load',
  'lib/report',
  'lib/matrix',
  'lib/reliability',
  'lib/route-scale',
  'lib/cluster',
  'lib/guide',
  'bin',
];

const under = (folders) => `^(${folders.join('|')})/`;

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `one-way-${layer.replace('/', '-')}`,
  comment: `${layer} may require only ${LAYERS.slice(0, i).join(', ') || 'Node and npm packages'}`,
  severity: 'error',
  from: { path: under([layer]) },
  to: { path: under(LAYERS.slice(i + 1)) },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-cycle',
      comment: 'modules require each other one way',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'service-ships-alone',
      comment: 'the service is built into its own image: its code requires nothing outside data-service/',
      severity: 'error',
      from: { path: '^data-service/src/' },
      to: { path: '^(?!data-service/|node_modules/)', dependencyTypesNot: ['core'] },
    },
    {
      name: 'tests-and-commands-are-leaves',
      comment: 'libraries never require a test or an entry point',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^(test|bin)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.tools|\\.lab|results|coverage)/' },
    moduleSystems: ['cjs'],
  },
};
