'use strict';
// Size your cluster, offline: every `oc apply -k <dir>` and `npm run cluster:deploy` of its page is
// built with the pinned kustomize and validated with kubeconform -strict.
const fs = require('node:fs');
const path = require('node:path');
const yaml = require('js-yaml');
const { ROOT } = require('../../lib/core/paths');
const { fencedBlocks, blockCommands, simpleCommands, npmRun } = require('../../lib/guide/exercise');
const { buildObjects, compose } = require('../../lib/cluster/kustomize');
const { validateAll } = require('../../lib/cluster/kubeconform');

const PAGE = 'docs/size-your-cluster.md';
const commands = fencedBlocks(fs.readFileSync(path.join(ROOT, PAGE), 'utf8'))
  .filter((b) => b.lang === 'sh')
  .flatMap((b) => blockCommands(b.text))
  .flatMap(({ text }) => simpleCommands(text));

/** What the page applies: { name: objects[] }. */
function applied() {
  const builds = {};
  for (const { argv } of commands) {
    const k = argv.indexOf('-k');
    if (argv[0] === 'oc' && argv[1] === 'apply' && k !== -1)
      builds[argv[k + 1]] = buildObjects(path.join(ROOT, argv[k + 1]));
    const npm = npmRun(argv);
    if (npm && npm.script === 'cluster:deploy') {
      const overlay = npm.args[npm.args.indexOf('--overlay') + 1];
      const components = npm.args.includes('--router-tuning') ? ['router-tuning'] : [];
      const composed = compose({ overlay, components });
      try {
        builds[`cluster:deploy ${npm.args.join(' ')}`] = buildObjects(composed.dir);
      } finally {
        composed.cleanup();
      }
    }
  }
  return builds;
}

test('the page applies an overlay with oc apply -k and the dedicated IngressController through cluster:deploy', () => {
  const builds = applied();
  expect(Object.keys(builds)).toEqual(expect.arrayContaining(['overlays/edge']));
  const tuned = Object.entries(builds).find(([name]) => name.includes('--router-tuning'));
  expect(tuned).toBeDefined();
  expect(tuned[1].map((o) => o.kind)).toContain('IngressController');
});

test('everything the page applies validates strictly (kubeconform)', () => {
  const builds = applied();
  const reports = validateAll(
    Object.fromEntries(
      Object.entries(builds).map(([name, objects]) => [
        name,
        objects.map((o) => yaml.dump(o, { noRefs: true })).join('---\n'),
      ]),
    ),
  );
  for (const [name, objects] of Object.entries(builds)) {
    const failures = reports[name].resources.filter((r) => r.status !== 'statusValid');
    expect({ name, failures, valid: reports[name].summary.valid }).toEqual({
      name,
      failures: [],
      valid: objects.length,
    });
  }
}, 120000);
