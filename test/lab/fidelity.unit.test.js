'use strict';
// The semantic comparison of two router configurations: what differs by nature is normalized away,
// a real difference is reported, a known one is explained, and a known one that is gone is stale.
const { normalize, compareConfigs, fidelity } = require('../../lib/lab/openshift-router/fidelity');

const backend = (balance, server) =>
  `backend be_http:router-lab:data-service-http\n  mode http\n  balance ${balance}\n  ${server}\n`;
const tplServer =
  'server pod:data-service-1:data-service:http:127.0.0.1:18080 127.0.0.1:18080 weight 1 check inter 5000ms';
const osServer =
  'server pod:data-service-1:data-service:http:198.18.4.7:18080 198.18.4.7:18080 cookie 0123456789abcdef0123456789abcdef weight 1 check inter 5000ms';

test('paths, addresses, server names and cookie hashes are normalized away', () => {
  expect(normalize(tplServer)).toBe(normalize(osServer));
  expect(normalize('  use_backend %[base,map_reg(/tmp/x/router/os_http_be.map)]')).toBe(
    normalize('use_backend %[base,map_reg(/var/lib/haproxy/conf/os_http_be.map)]'),
  );
  expect(compareConfigs(backend('random', tplServer), backend('random', osServer))).toEqual([]);
});

test('a real difference is reported with its section and side, and is not explained', () => {
  const verdict = fidelity(backend('roundrobin', tplServer), backend('random', osServer));
  expect(verdict.unexplained).toEqual([
    { section: 'backend be_http:router-lab:data-service-http', side: 'template', line: 'balance roundrobin' },
    { section: 'backend be_http:router-lab:data-service-http', side: 'openshift', line: 'balance random' },
  ]);
});

test('a known difference is explained, and known ones that explain nothing are stale', () => {
  const template = `${backend('random', tplServer)}  option httpchk GET /readyz\n`;
  const verdict = fidelity(template, backend('random', osServer));
  expect(verdict.unexplained).toEqual([]);
  expect(verdict.explained.map((d) => d.known)).toEqual(['health-check-readyz']);
  expect(verdict.stale).toContain('stats-listener');
  expect(verdict.stale).not.toContain('health-check-readyz');
});
