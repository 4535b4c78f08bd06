'use strict';
// haload's per-second output, as it printed it (test/fixtures/haload/, made by the commands below
// with .tools/bin/haload 3.5-dev5-50872daa6), read into totals, status classes and mean latencies.
const fs = require('node:fs');
const path = require('node:path');
const { parseHaloadOutput } = require('../../lib/load/haload-output');
const { haloadGenerator } = require('../../lib/load/haload');

const fixture = (name) => fs.readFileSync(path.join(__dirname, '../fixtures/haload', name), 'utf8');

test('keep-alive over TLS with SNI: totals from the last line, 2xx summed, latency weighted by requests', () => {
  // haload -ll -hs -t 1 -u 4 -d 2 -w 5000 --global 'chroot /\nuid 0'
  //   --server 'sni str(route.example.test)' -h1 https://127.0.0.1:20997/   (a Node HTTPS server)
  const figures = parseHaloadOutput(fixture('https-sni-keepalive.txt'));
  expect(figures).toMatchObject({ requests: 105672, connections: 4, errors: 0, bytes: 21874104 });
  expect(figures.statuses).toEqual({ '1xx': 0, '2xx': 105672, '3xx': 0, '4xx': 0, '5xx': 0 });
  // (54517 × 73.0 + 51151 × 78.2 + 4 × 1092.2) ÷ 105672 µs: the last second's 4 requests barely count.
  expect(figures.meanTtlbMs).toBe(0.0756);
});

test('a refused port: every connection an error, no request, no latency ("-")', () => {
  // haload -ll -hs -t 1 -u 2 -d 1 -w 5000 --global 'chroot /\nuid 0' -h1 http://127.0.0.1:20995/
  const figures = parseHaloadOutput(fixture('refused.txt'));
  expect(figures).toMatchObject({ requests: 0, errors: 61912, meanTtfbMs: null, meanTtlbMs: null });
  expect(() =>
    haloadGenerator.parse(
      { output: fixture('refused.txt'), cpu: { cores: { haload: 1 } } },
      { url: 'http://127.0.0.1:20995/', durationSeconds: 1 },
    ),
  ).toThrow(
    'haload got no response from http://127.0.0.1:20995/: 61912 connections failed (is anything listening there?)',
  );
});

test('output without figures is refused, quoting it', () => {
  expect(() => parseHaloadOutput('Usage : haload [opts] [URL]\n')).toThrow(
    /haload printed no figures:\nUsage/,
  );
});

test('the command: server options and the protocol before the URL, which comes last', () => {
  const { args } = haloadGenerator.command({
    haload: 'haload',
    url: 'https://127.0.0.1:8443/api/pages/1k',
    host: 'a.apps.test',
    sni: 'a.apps.test',
    resume: false,
    protocol: 'h2',
    users: 8,
    threads: 2,
    durationSeconds: 10,
    rate: 500,
    perConnection: 1,
  });
  const joined = args.join(' ');
  expect(joined).toMatch(/-t 2 -u 8 -d 10 -w 5000 -R 500 -r 1 -H Host: a\.apps\.test/);
  expect(args.slice(-4)).toEqual([
    '--server',
    'sni str(a.apps.test) no-ssl-reuse',
    '-h2',
    'https://127.0.0.1:8443/api/pages/1k',
  ]);
});

test.each([
  ['htp://127.0.0.1/', /it speaks http:\/\/ and https:\/\/ only/],
  ['127.0.0.1:80', /"127.0.0.1:80": it is not a URL/],
  ['not a url', /"not a url": it is not a URL/],
])('a bad URL (%s) is refused before haload starts, naming it', (url, why) => {
  expect(() =>
    haloadGenerator.command({ haload: 'haload', url, users: 1, threads: 1, durationSeconds: 1 }),
  ).toThrow(why);
});

test("haload's alerts are the reason it gives for not starting", () => {
  const output =
    "[NOTICE]   (1) : haproxy version is 3.5-dev5\n[ALERT]    (1) : invalid address: 'x.invalid' in 'x.invalid:1'\n";
  expect(haloadGenerator.failure(output)).toBe("invalid address: 'x.invalid' in 'x.invalid:1'");
});
