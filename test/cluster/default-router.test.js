'use strict';
// cluster:deploy --router-tuning's one change outside its project, and cluster:teardown's undoing
// of it, against the real-router lab's API server (its IngressController `default`), with kubectl
// standing in for oc: the selector recorded first, ours added to it, then only ours taken out.
const { sharedLab } = require('../lab/helpers');
const { oc } = require('../../lib/cluster/oc');
const router = require('../../lib/cluster/default-router');

jest.setTimeout(120000);

const describeAsRoot = process.getuid() === 0 ? describe : describe.skip;
const NAMESPACE = 'router-lab';
const CONTROLLER = ['ingresscontroller/default', '-n', 'openshift-ingress-operator'];
const OWN = { matchLabels: { tier: 'public' } };

const selector = () => JSON.parse(oc(['get', ...CONTROLLER, '-o', 'json'])).spec.routeSelector;
const patch = (ops) => oc(['patch', ...CONTROLLER, '--type=json', '-p', JSON.stringify(ops)]);
const setSelector = (value) => patch([{ op: 'add', path: '/spec/routeSelector', value }]);

describeAsRoot(
  'the default IngressController, changed by deploy --router-tuning and put back by teardown',
  () => {
    // The run's shared real-router lab (test/lab/openshift-lab.test.js takes it down).
    const lab$ = sharedLab({ LAB_ROUTER: 'openshift', LAB_ROUTER_RELOAD_INTERVAL: '1' });
    const lines = [];
    const log = (line) => lines.push(line);
    let kubeconfig;

    beforeAll(() => {
      kubeconfig = process.env.KUBECONFIG;
      process.env.KUBECONFIG = lab$.state.router.kube.kubeconfig;
    });
    afterAll(() => {
      if (kubeconfig === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = kubeconfig;
    });
    // Whatever a test left, a failed one too: no selector, no record, as the lab made them.
    afterEach(() => {
      if (selector() !== undefined) patch([{ op: 'remove', path: '/spec/routeSelector' }]);
      oc(['delete', 'configmap', router.RECORD, '-n', NAMESPACE, '--ignore-not-found']);
    });

    test('a selector of its own: recorded once, ours added, then it back and the record gone', () => {
      setSelector(OWN);
      router.excludeFromDefaultRouter(NAMESPACE, log);
      // What it selected, less the benchmark Routes.
      expect(selector()).toEqual({ ...OWN, ...router.EXCLUDING_SELECTOR });
      expect(router.readRecord(NAMESPACE)).toEqual({ routerTuning: true, defaultRouteSelector: OWN });
      // A second deploy keeps the first record: it holds the selector from before any deploy.
      router.excludeFromDefaultRouter(NAMESPACE, log);
      expect(router.readRecord(NAMESPACE).defaultRouteSelector).toEqual(OWN);
      router.restoreDefaultRouter(NAMESPACE, log);
      expect(selector()).toEqual(OWN);
      expect(oc(['get', 'configmap', router.RECORD, '-n', NAMESPACE], { allowFail: true }).ok).toBe(false);
      expect(router.readRecord(NAMESPACE)).toBeNull();
      expect(lines).toContain(`deleted configmap/${router.RECORD}`);
    });

    test("an administrator's change since the deploy is kept; only ours is taken out, and said", () => {
      setSelector(OWN);
      router.excludeFromDefaultRouter(NAMESPACE, log);
      const changed = { matchLabels: { tier: 'internal' } };
      setSelector({ ...changed, ...router.EXCLUDING_SELECTOR });
      router.restoreDefaultRouter(NAMESPACE, log);
      expect(selector()).toEqual(changed);
      expect(lines).toContain(
        `  it had ${JSON.stringify(OWN)} before cluster:deploy: the changes since are kept`,
      );
    });

    test('no selector before, none after; without a record only our expression is taken out', () => {
      expect(selector()).toBeUndefined();
      router.excludeFromDefaultRouter(NAMESPACE, log);
      expect(selector()).toEqual(router.EXCLUDING_SELECTOR);
      router.restoreDefaultRouter(NAMESPACE, log);
      expect(selector()).toBeUndefined();
      // An older deploy (no record) left ours beside theirs: ours taken out. Then nothing to undo.
      setSelector({ ...OWN, ...router.EXCLUDING_SELECTOR });
      router.restoreDefaultRouter(NAMESPACE, log);
      expect(selector()).toEqual(OWN);
      router.restoreDefaultRouter(NAMESPACE, log);
      expect(selector()).toEqual(OWN);
      expect(lines.at(-1)).toMatch(/no change of cluster:deploy: leaving it alone/);
    });
  },
);
