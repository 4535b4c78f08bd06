'use strict';
// LAB_ROUTER_SNI_HOP=none, the template router without the router's unix-socket PROXY hop: edge
// and re-encrypt are terminated on the HTTPS port itself, nothing reaches passthrough, a reload
// keeps that layout, and the matrix skips passthrough saying why.
const fs = require('node:fs');
const { useLab } = require('./helpers');
const lab = require('../../lib/lab/index');
const { probeRoute } = require('../../lib/lab/common/health');
const { labRoutes } = require('../../lib/lab/common/routes');
const { resolveTarget, requireRoutes } = require('../../lib/matrix/target');

jest.setTimeout(120000);

describe('the template router without the SNI hop', () => {
  const lab$ = useLab({ LAB_ROUTER_SNI_HOP: 'none', LAB_REPLICAS: '1' });
  const probe = (route) => probeRoute(route, { labCA: lab$.state.certs.labCA });

  test('serves edge and re-encrypt straight off the HTTPS port; passthrough is not a Route of it', async () => {
    const { state } = lab$;
    expect(state.routes.map((r) => r.termination).sort()).toEqual(['edge', 'http', 'reencrypt']);
    for (const route of state.routes) expect((await probe(route)).status).toBe(200);
    // The passthrough host now meets fe_sni, which terminates TLS and has no backend for it.
    const passthrough = labRoutes({
      httpPort: state.router.httpPort,
      httpsPort: state.router.httpsPort,
    }).find((r) => r.termination === 'passthrough');
    expect((await probe(passthrough)).status).toBe(503);
    const config = fs.readFileSync(state.router.config, 'utf8');
    expect(config).toMatch(new RegExp(`^ {2}bind 127\\.0\\.0\\.1:${state.router.httpsPort} ssl crt `, 'm'));
    expect(config).not.toMatch(/bind unix@\S+\/haproxy-sni\.sock/);
  });

  test('a reload renders the same layout, and the matrix skips passthrough naming why', async () => {
    await lab.reload({ env: lab$.env, log: () => {} });
    const config = fs.readFileSync(lab$.state.router.config, 'utf8');
    expect(config).not.toMatch(/bind unix@\S+\/haproxy-sni\.sock/);
    for (const route of lab$.state.routes) expect((await probe(route)).status).toBe(200);
    const { target } = resolveTarget({ target: 'lab' }, lab$.env);
    const planned = ['edge', 'passthrough'].map((termination) => ({
      name: `${termination}:1k:keepalive`,
      termination,
    }));
    expect(requireRoutes(target, planned)).toEqual({
      cells: [planned[0]],
      skipped: [
        {
          name: 'passthrough:1k:keepalive',
          reason: "the running lab serves no passthrough Route (see 'npm run lab:status')",
        },
      ],
    });
  });
});
