'use strict';
// The one shared object cluster:deploy --router-tuning changes: the default IngressController's
// route selector, so that only the dedicated router serves the benchmark Routes. Recorded in the
// project first (a ConfigMap); cluster:teardown takes out only what deploy added.
const { isDeepStrictEqual } = require('node:util');
const names = require('./names');
const { OcError, oc } = require('./oc');

const DEFAULT_CONTROLLER = ['ingresscontroller/default', '-n', 'openshift-ingress-operator'];
/** The ConfigMap in the project that says what cluster:deploy changed outside it. */
const RECORD = 'router-lab-deploy-record';

/** The expression that keeps the benchmark Routes off the default router. */
const EXCLUDING = { key: names.SHARD_LABEL, operator: 'NotIn', values: ['benchmark'] };
const EXCLUDING_SELECTOR = { matchExpressions: [EXCLUDING] };

const isOurs = (expression) => isDeepStrictEqual(expression, EXCLUDING);

/** `selector` that also excludes the benchmark Routes: the Routes it selected, less those (pure). */
function excluding(selector = {}) {
  const expressions = selector.matchExpressions || [];
  return expressions.some(isOurs) ? selector : { ...selector, matchExpressions: [...expressions, EXCLUDING] };
}

/** `selector` without our expression; undefined when nothing else is left (pure). */
function withoutOurs(selector) {
  if (!selector) return undefined;
  const expressions = (selector.matchExpressions || []).filter((e) => !isOurs(e));
  const left = { ...selector, matchExpressions: expressions };
  if (!expressions.length) delete left.matchExpressions;
  return Object.keys(left).length ? left : undefined;
}

/** What --router-tuning changes, in words: said before it is done, and refused without --yes. */
const CHANGE =
  "the cluster's shared default router: IngressController 'default' (openshift-ingress-operator) gets " +
  `spec.routeSelector excluding Routes labelled ${names.SHARD_LABEL}=benchmark, so that only the ` +
  'dedicated router serves them; cluster:teardown puts back the selector it had';

/** The JSON patch that sets the default IngressController's selector to `wanted` (none: removed). */
function selectorPatch(wanted, current) {
  const path = '/spec/routeSelector';
  if (wanted) return [{ op: 'add', path, value: wanted }];
  return current === undefined ? [] : [{ op: 'remove', path }];
}

const routeSelector = () => JSON.parse(oc(['get', ...DEFAULT_CONTROLLER, '-o', 'json'])).spec.routeSelector;

/** The project's record, or null where there is none: { routerTuning, defaultRouteSelector (null: none) }. */
function readRecord(namespace) {
  const r = oc(['get', 'configmap', RECORD, '-n', namespace, '-o', 'json'], { allowFail: true });
  // Only "not found" means no record: any other failure must not be taken for one.
  if (!r.ok && /NotFound|not found/.test(r.stderr)) return null;
  if (!r.ok) throw new OcError(`oc get configmap ${RECORD} failed: ${r.stderr.trim()}`);
  const { data } = JSON.parse(r.stdout);
  return {
    routerTuning: data.routerTuning === 'true',
    defaultRouteSelector: JSON.parse(data.defaultRouteSelector),
  };
}

/**
 * Records the default router's selector in the project (once: a second deploy keeps the first
 * record, which holds the selector from before any deploy), then excludes the benchmark Routes.
 */
function excludeFromDefaultRouter(namespace, log) {
  const current = routeSelector();
  if (!readRecord(namespace)) {
    const record = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: RECORD, labels: { 'app.kubernetes.io/part-of': 'router-lab' } },
      // Without our expression: a deploy after an unfinished teardown records the router's own.
      data: {
        routerTuning: 'true',
        defaultRouteSelector: JSON.stringify(withoutOurs(current) ?? null),
      },
    };
    oc(['apply', '-n', namespace, '-f', '-'], { input: JSON.stringify(record) });
    log(`recorded the default IngressController's route selector in configmap/${RECORD}`);
  }
  log(`changing ${CHANGE}`);
  const patch = selectorPatch(excluding(current), current);
  oc(['patch', ...DEFAULT_CONTROLLER, '--type=json', '-p', JSON.stringify(patch)]);
}

/**
 * Takes our expression out of the default router's selector, keeping whatever else it selects
 * (an administrator's change since the deploy too), then drops the project's record. What the
 * record says the router had is said beside what it has now. `record`: the project's, if read already.
 */
function restoreDefaultRouter(namespace, log, record = readRecord(namespace)) {
  const current = routeSelector();
  if (!(current?.matchExpressions || []).some(isOurs)) {
    log('the default IngressController has no change of cluster:deploy: leaving it alone');
  } else {
    const restored = withoutOurs(current);
    oc([
      'patch',
      ...DEFAULT_CONTROLLER,
      '--type=json',
      '-p',
      JSON.stringify(selectorPatch(restored, current)),
    ]);
    log(
      `took the benchmark exclusion out of the default IngressController's route selector (now ${describe(restored)})`,
    );
    if (record && !isDeepStrictEqual(restored ?? null, record.defaultRouteSelector)) {
      log(
        `  it had ${describe(record.defaultRouteSelector)} before cluster:deploy: the changes since are kept`,
      );
    }
  }
  if (!record) return;
  oc(['delete', 'configmap', RECORD, '-n', namespace, '--ignore-not-found']);
  log(`deleted configmap/${RECORD}`);
}

const describe = (selector) => (selector ? JSON.stringify(selector) : 'none');

module.exports = {
  CHANGE,
  RECORD,
  EXCLUDING_SELECTOR,
  excluding,
  withoutOurs,
  selectorPatch,
  readRecord,
  excludeFromDefaultRouter,
  restoreDefaultRouter,
};
