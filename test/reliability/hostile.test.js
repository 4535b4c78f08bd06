'use strict';
// Hostile and malformed clients against a real lab, each beside a steady k6 load through the
// edge Route that must stay error-free, with the resident memory of every lab process checked.
const { ATTACKS } = require('../../lib/reliability/attacks');
const { compareVersions } = require('../../lib/core/tools');
const { sharedLab, useTempDir, runScenarios } = require('../lab/helpers');

jest.setTimeout(180000);

describe('hostile clients (real HAProxy, real service, real k6)', () => {
  // The run's shared one-replica lab: the scenario leaves it as it found it.
  const lab$ = sharedLab({ LAB_REPLICAS: '1' });
  const dir = useTempDir('rlab-hostile-');

  test('every attack, short form: no error in the steady load, every bad client refused, memory bounded', async () => {
    // A 1 s attack at 100 req/s: the same 100-odd requests of steady load around each attack as 2 s at 50.
    const opts = { rate: 100, attacks: ATTACKS.map((a) => a.name), attackMs: 1000 };
    const { doc } = await runScenarios(['hostile'], opts, { env: lab$.env, dir });
    const [scenario] = doc.scenarios;
    const byName = Object.fromEntries(scenario.cases.map((c) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(opts.attacks);
    for (const c of scenario.cases) {
      expect({ attack: c.name, errors: c.errors }).toEqual({ attack: c.name, errors: {} });
      expect(c.load.requests).toBeGreaterThan(100);
      for (const m of Object.values(c.figures.rss)) expect(m.gone).toBe(false);
    }
    const seen = (name) => byName[name].figures.attack;
    // The service answers 431 to both; the router 400 up to HAProxy 3.0, and from 3.2 on 414 to
    // the long URL and 431 to the long header.
    const modern = compareVersions(lab$.state.router.haproxy.version, '3.2.0') >= 0;
    expect(seen('oversized').statuses).toEqual(modern ? { 414: 10, 431: 30 } : { 400: 20, 431: 20 });
    expect(seen('tls-to-plain')).toMatchObject({ tlsSessions: 0, closedByPeer: 20 });
    expect(seen('sni').statuses).toEqual({ 200: 10, 503: 10 });
    expect(seen('http10-pipelining').statuses).toEqual({ 200: 60 });
    expect(seen('invalid-flood').statuses['200']).toBeUndefined();
    expect(seen('slowloris-router').statuses).toEqual({});
    expect(scenario.verdict).toMatchObject({ pass: true, reasons: [] });
  });
});
