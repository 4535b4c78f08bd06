'use strict';
// The areas' one-way order (drawn in ARCHITECTURE.md): an area may require only the areas above
// it. `npm run lint` refuses an upward require, a cycle between modules, and the service reaching
// outside its folder. test/ may require anything; nothing requires test/ or bin/.
const LAYERS = [
  'k6/lib', // the vocabulary k6 and Node share
  'lib/core',
  'lib/images', // the pods' images (LAB_PODS=yes): setup builds them, the lab's node imports them
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

// Inside lib/lab (its README): plumbing (common/, haproxy/, kube/) serves the router backends
// (template-router/, openshift-router/, gateway/: the Gateway API's istiod and Envoy), which never
// use each other; faults/ and the lab's API (the files at lib/lab/'s top, the backend registry
// among them) sit above them. The plumbing reads each backend's kind.js (plain data) and nothing
// else of it.
const LAB = 'lib/lab';
const BACKENDS = ['template-router', 'openshift-router', 'gateway'];
const labRules = [
  ...BACKENDS.map((backend) => ({
    name: `lab-${backend}-alone`,
    comment: `${LAB}/${backend} never uses the other router backend: what they share is plumbing`,
    severity: 'error',
    from: { path: `^${LAB}/${backend}/` },
    to: { path: `^${LAB}/(${BACKENDS.filter((b) => b !== backend).join('|')})/` },
  })),
  {
    name: 'lab-plumbing-below-backends',
    comment: `${LAB}'s plumbing (common, haproxy, kube) uses no backend (but its kind.js), fault or API module`,
    severity: 'error',
    from: { path: `^${LAB}/(common|haproxy|kube)/` },
    to: { path: `^${LAB}/([^/]+\\.js$|faults/|(${BACKENDS.join('|')})/(?!kind\\.js$))` },
  },
  {
    name: 'lab-backends-below-api',
    comment: `a router backend uses plumbing only: callers ask it through ${LAB}/routers.js`,
    severity: 'error',
    from: { path: `^${LAB}/(${BACKENDS.join('|')})/` },
    to: { path: `^${LAB}/([^/]+\\.js$|faults/)` },
  },
  {
    name: 'lab-faults-through-api',
    comment: `${LAB}/faults asks the router's backend through ${LAB}/routers.js, never a backend directly`,
    severity: 'error',
    from: { path: `^${LAB}/faults/` },
    to: { path: `^${LAB}/(${BACKENDS.join('|')})/` },
  },
];

module.exports = {
  forbidden: [
    ...upward,
    ...labRules,
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
      name: 'service-above-the-load',
      comment:
        'data-service/bench requires lib/load: the areas up to lib/load use the service through its contract, never its code',
      severity: 'error',
      from: { path: under(LAYERS.slice(0, LAYERS.indexOf('lib/load') + 1)) },
      to: { path: '^data-service/' },
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
