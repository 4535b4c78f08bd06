'use strict';
// The real router on HAProxy 3.3 and later: a re-encrypt Route that never serves is explained
// (sni-auto), and nothing is said where that cannot be the cause.
const { sniAutoHint } = require('../../lib/lab/openshift-router/cluster');

const reencrypt = { name: 'data-service-reencrypt', termination: 'reencrypt' };
const edge = { name: 'data-service-edge', termination: 'edge' };

test('HAProxy with sni-auto and a re-encrypt Route waiting: the hint names the cause and the way out', () => {
  const hint = sniAutoHint({ version: '3.4.0', sniAuto: true }, [reencrypt]);
  expect(hint).toMatch(/HAProxy 3\.4\.0 sends each request's Host as SNI .*sni-auto/);
  expect(hint).toMatch(/sets no sni and no no-sni-auto, so a re-encrypt Route .* answers 503/);
});

test('no hint before 3.3, or when only other terminations wait', () => {
  expect(sniAutoHint({ version: '3.2.23', sniAuto: false }, [reencrypt])).toBe('');
  expect(sniAutoHint({ version: '3.4.0', sniAuto: true }, [edge])).toBe('');
  expect(sniAutoHint(undefined, [reencrypt])).toBe('');
});
