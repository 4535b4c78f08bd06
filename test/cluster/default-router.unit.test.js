'use strict';
// The default IngressController's route selector as cluster:deploy --router-tuning changes it (our
// expression added to whatever it selects) and as cluster:teardown puts it back.
const {
  excluding,
  withoutOurs,
  selectorPatch,
  EXCLUDING_SELECTOR,
  CHANGE,
} = require('../../lib/cluster/default-router');

const [ours] = EXCLUDING_SELECTOR.matchExpressions;
const theirs = { key: 'tier', operator: 'In', values: ['public'] };

test('deploy adds our expression to the selector the router has, keeping theirs, once', () => {
  expect(excluding(undefined)).toEqual(EXCLUDING_SELECTOR);
  expect(excluding({ matchLabels: { tier: 'public' } })).toEqual({
    matchLabels: { tier: 'public' },
    matchExpressions: [ours],
  });
  expect(excluding({ matchExpressions: [theirs] })).toEqual({ matchExpressions: [theirs, ours] });
  expect(excluding(EXCLUDING_SELECTOR)).toEqual(EXCLUDING_SELECTOR);
});

test('without a record, only our expression is taken out; nothing left, no selector', () => {
  expect(withoutOurs({ matchExpressions: [theirs, ours] })).toEqual({ matchExpressions: [theirs] });
  expect(withoutOurs({ matchLabels: { tier: 'public' }, matchExpressions: [ours] })).toEqual({
    matchLabels: { tier: 'public' },
  });
  expect(withoutOurs(EXCLUDING_SELECTOR)).toBeUndefined();
  expect(withoutOurs(undefined)).toBeUndefined();
});

test('the patch sets a selector whole, removes it, or does nothing when there is none to remove', () => {
  const recorded = { matchLabels: { tier: 'public' } };
  expect(selectorPatch(recorded, EXCLUDING_SELECTOR)).toEqual([
    { op: 'add', path: '/spec/routeSelector', value: recorded },
  ]);
  expect(selectorPatch(undefined, EXCLUDING_SELECTOR)).toEqual([
    { op: 'remove', path: '/spec/routeSelector' },
  ]);
  expect(selectorPatch(null, undefined)).toEqual([]);
});

test('what --router-tuning changes names the shared router, the field and how it is undone', () => {
  expect(CHANGE).toMatch(
    /shared default router: IngressController 'default'.*spec\.routeSelector.*cluster:teardown/,
  );
});
