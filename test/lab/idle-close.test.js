'use strict';
// LAB_ROUTER_IDLE_CLOSE=deferred (idleConnectionTerminationPolicy: Deferred): the router renders
// `option idle-close-on-response`, and Node's keep-alive clients lose no request to reloads; the
// default, as OpenShift's, renders none (docs/figures.md, "Reloads and keep-alive clients").
const fs = require('node:fs');
const path = require('node:path');
const { useLab, sharedLab, loadLoop } = require('./helpers');

jest.setTimeout(180000);

const describeAsRoot = process.getuid() === 0 ? describe : describe.skip;
const routerConfig = (state) =>
  fs.readFileSync(path.join(state.router.workDir, 'conf', 'haproxy.config'), 'utf8');
const OPTION = /^\s*option idle-close-on-response$/gm;

describeAsRoot('LAB_ROUTER_IDLE_CLOSE', () => {
  describe('immediate (the default, as OpenShift)', () => {
    const lab$ = sharedLab({ LAB_ROUTER: 'openshift', LAB_ROUTER_RELOAD_INTERVAL: '1' });

    test('renders no idle-close-on-response', () => {
      expect(routerConfig(lab$.state).match(OPTION)).toBeNull();
    });
  });

  describe('deferred', () => {
    const lab$ = useLab({
      LAB_ROUTER: 'openshift',
      LAB_ROUTER_RELOAD_INTERVAL: '1',
      LAB_ROUTER_IDLE_CLOSE: 'deferred',
    });

    test('renders idle-close-on-response in the three HTTP frontends, and lab:status says so', async () => {
      const { state } = lab$;
      expect(routerConfig(state).match(OPTION)).toHaveLength(3);
      expect(state.router.idleClose).toBe('deferred');
      const { formatLab } = require('../../lib/lab/format');
      expect(formatLab(state)).toMatch(/idle connections closed after their next response at a reload/);
    });

    test('Node keep-alive clients through http and edge lose no request to 4 reloads', async () => {
      const { state, env } = lab$;
      const lab = require('../../lib/lab/index');
      let done = false;
      const until = () => done;
      const ca = fs.readFileSync(state.certs.labCA);
      const url = (t) => `${state.routes.find((r) => r.termination === t).url}/api/whoami`;
      const options = { concurrency: 2, until, maxMs: 120000 };
      const loads = [loadLoop(url('http'), options), loadLoop(url('edge'), { ...options, ca })];
      try {
        for (let i = 0; i < 4; i++) {
          await lab.reload({ env, log: () => {} });
          await new Promise((resolve) => setTimeout(resolve, 1500));
        }
      } finally {
        done = true;
      }
      const [http, edge] = await Promise.all(loads);
      expect({ http: http.failures, edge: edge.failures }).toEqual({ http: [], edge: [] });
      expect(http.ok + edge.ok).toBeGreaterThan(1000);
    });
  });
});
