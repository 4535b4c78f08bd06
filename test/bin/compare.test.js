'use strict';
// npm run compare end to end on real runs: two small matrices against a real lab (the second with
// one router thread fewer), compared, and a run compared with itself.
const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { ROOT } = require('../../lib/core/paths');
const { sharedLab, useTempDir } = require('../lab/helpers');
const { FIGURES } = require('../../lib/results-model/comparison');

const run = promisify(execFile);
jest.setTimeout(240000);

const node = (script, args, env) =>
  run(process.execPath, [path.join(ROOT, 'bin', script), ...args], { env: { ...process.env, ...env } }).catch(
    (err) => err,
  );

describe('npm run compare on real runs', () => {
  // The run's shared default lab (the guide's too): the matrix runs only read it.
  const lab$ = sharedLab({});
  const dir = useTempDir('rlab-compare-');
  const runs = {};

  beforeAll(async () => {
    for (const name of ['a', 'b']) {
      const out = path.join(dir, name);
      const done = await node(
        'matrix.js',
        [
          '--cells',
          'http:1k:keepalive',
          '--samples',
          '4',
          '--duration',
          '1',
          '--warmup',
          '0',
          '--cooldown',
          '0',
          '--out',
          out,
        ],
        lab$.env,
      );
      if (done.code) throw new Error(`matrix ${name} failed: ${done.stdout}${done.stderr}`);
      runs[name] = out;
    }
  });

  test('each figure gets a change, a 95 % interval and a verdict; compare.md and compare.html are written', async () => {
    const out = path.join(dir, 'ab');
    const { stdout } = await node('compare.js', [runs.a, runs.b, '--out', out]);
    for (const figure of ['router µs/req', 'req/s', 'p99 ms', 'generator µs/req']) {
      expect(stdout).toMatch(
        new RegExp(
          `http:1k:keepalive\\s+${figure.replace('/', '\\/')}\\s+\\d+(\\.\\d+)?\\s+\\d+(\\.\\d+)?\\s+[-+]?\\d+\\.\\d %\\s+[-+]?\\d+\\.\\d % … [-+]?\\d+\\.\\d %\\s+(better|worse|no difference detectable)\\s+\\d+`,
        ),
      );
    }
    expect(fs.readFileSync(path.join(out, 'compare.md'), 'utf8')).toMatch(
      /Hodges–Lehmann .* exact Mann–Whitney 95 % interval/,
    );
    const html = fs.readFileSync(path.join(out, 'compare.html'), 'utf8');
    expect(html).toMatch(/<svg [^>]*aria-label="change from A to B with 95 % intervals"/);
    expect(html).not.toMatch(/<(script|link)\b/);
  });

  test('a run compared with itself shows no difference in any figure', async () => {
    const { stdout } = await node('compare.js', [runs.a, runs.a, '--out', path.join(dir, 'aa')]);
    const verdicts = stdout.split('\n').filter((l) => l.startsWith('http:1k:keepalive'));
    expect(verdicts).toHaveLength(FIGURES.length);
    for (const line of verdicts) expect(line).toMatch(/ 0\.0 % .* no difference detectable /);
    expect(stdout).toContain('No run-wide condition differs.');
  });

  test('more runs: each is compared with the first', async () => {
    const out = path.join(dir, 'aba');
    const { stdout } = await node('compare.js', [runs.a, runs.b, runs.a, '--out', out]);
    const ids = [runs.a, runs.b].map(
      (r) => JSON.parse(fs.readFileSync(path.join(r, 'results.json'), 'utf8')).id,
    );
    expect(stdout).toContain(`Run ${ids[1]} (B) against ${ids[0]} (A)`);
    expect(stdout).toContain(`Run ${ids[0]} (B) against ${ids[0]} (A)`);
    expect(fs.readFileSync(path.join(out, 'compare.md'), 'utf8').match(/^# Run /gm)).toHaveLength(2);
  });

  test('bad input is named: a missing directory, one run only', async () => {
    const missing = await node('compare.js', [runs.a, path.join(dir, 'nope')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\/results\.json does not exist: is .* a results directory\?/);
    const one = await node('compare.js', [runs.a]);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/give at least 2 results directories/);
  });
});
