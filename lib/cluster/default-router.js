'use strict';
// The one shared object cluster:deploy --router-tuning changes: the default IngressController's
// route selector, so that only the dedicated router serves the benchmark Routes. What it was is
// recorded in the project first (a ConfigMap), and cluster:teardown puts exactly that back.
const { isDeepStrictEqual } = require('node:util');
const names = require('./names');
const { oc } = require('./oc');

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

/** The project's record, or null: { routerTuning, defaultRouteSelector (null: it had none) }. */
function readRecord(namespace) {
  const r = oc(['get', 'configmap', RECORD, '-n', namespace, '-o', 'json'], { allowFail: true });
  if (!r.ok) return null;
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
  if (!readRecord(namespace)) {
    const record = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: RECORD, labels: { 'app.kubernetes.io/part-of': 'router-lab' } },
      data: { routerTuning: 'true', defaultRouteSelector: JSON.stringify(routeSelector() ?? null) },
    };
    oc(['apply', '-n', namespace, '-f', '-'], { input: JSON.stringify(record) });
    log(`recorded the default IngressController's route selector in configmap/${RECORD}`);
  }
  log(`changing ${CHANGE}`);
  const current = routeSelector();
  const patch = selectorPatch(excluding(current), current);
  oc(['patch', ...DEFAULT_CONTROLLER, '--type=json', '-p', JSON.stringify(patch)]);
}

/**
 * Puts back what the project's record says the default router had, then drops the record. Without
 * a record (a deploy from before records), only our expression is taken out of its selector.
 */
function restoreDefaultRouter(namespace, log) {
  const record = readRecord(namespace);
  const current = routeSelector();
  if (!record) {
    if (!(current?.matchExpressions || []).some(isOurs))
      return log('the default IngressController has no change of cluster:deploy: leaving it alone');
    const patch = selectorPatch(withoutOurs(current), current);
    oc(['patch', ...DEFAULT_CONTROLLER, '--type=json', '-p', JSON.stringify(patch)]);
    return log("removed the benchmark exclusion from the default IngressController's route selector");
  }
  const patch = selectorPatch(record.defaultRouteSelector, current);
  if (patch.length) oc(['patch', ...DEFAULT_CONTROLLER, '--type=json', '-p', JSON.stringify(patch)]);
  const was = record.defaultRouteSelector ? JSON.stringify(record.defaultRouteSelector) : 'none';
  log(`restored the default IngressController's route selector (${was})`);
  oc(['delete', 'configmap', RECORD, '-n', namespace, '--ignore-not-found']);
  log(`deleted configmap/${RECORD}`);
}

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
