'use strict';
// --matrix FILE: a run replayed from the options block a results.json recorded (or the whole
// file), validated by the matrix's own declarations; the command line overrides the file.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseMatrixArgs, SETTINGS, UsageError } = require('../../lib/matrix/options');
const { planCells } = require('../../lib/matrix/plan');
const { loadModel } = require('../../lib/matrix/options');

const RESULTS = path.join(__dirname, '../fixtures/matrix-results/results.json');
const recorded = JSON.parse(fs.readFileSync(RESULTS, 'utf8')).options;

let dir;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'matrix-file-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes `content` (an object) to a file in the temp dir and returns its path. */
function file(name, content) {
  const p = path.join(dir, name);
  fs.writeFileSync(p, JSON.stringify(content));
  return p;
}

test('the options block of a results.json replays to the same options', () => {
  const block = file('options.json', recorded);
  const replayed = parseMatrixArgs(['--matrix', block]);
  const { executor, maxVus } = recorded;
  // Every recorded setting comes back under its own name (SETTINGS says which key holds which).
  for (const s of SETTINGS.filter((setting) => setting.recorded && setting.name !== 'maxVus')) {
    expect([s.recorded, replayed[s.name]]).toEqual([s.recorded, recorded[s.recorded]]);
  }
  // The same run as the flags that would have given it.
  const flags =
    '--sizes 1k,4k --tls-session full --duration 10 --samples 3 --warmup 3 --cooldown 2 --vus 32 --cross-check';
  const byFlags = parseMatrixArgs(flags.split(' '));
  expect(replayed).toEqual({ ...byFlags, matrixFile: block });
  // executor and a closed model's maxVus are derived, not replayed: the runner derives them again.
  expect(loadModel(replayed)).toEqual({ executor, maxVus });
  expect(replayed.maxVus).toBeNull();
});

test('a whole results.json is read for its options block', () => {
  expect(parseMatrixArgs(['--matrix', RESULTS])).toEqual({
    ...parseMatrixArgs(['--matrix', file('block.json', recorded)]),
    matrixFile: RESULTS,
  });
});

test('an open-model run replays its rate and VU ceiling', () => {
  const open = file('open.json', { ...recorded, executor: 'constant-arrival-rate', rate: 500, maxVus: 80 });
  const opts = parseMatrixArgs(['--matrix', open]);
  expect(opts).toMatchObject({ rate: 500, maxVus: 80, vus: 32 });
  expect(loadModel(opts)).toEqual({ executor: 'constant-arrival-rate', maxVus: 80 });
});

test('flags given on the command line override the file', () => {
  const quick = file('quick.json', { ...recorded, quick: true, durationSeconds: 3, samples: 1 });
  const opts = parseMatrixArgs(['--matrix', quick, '--samples', '5', '--sizes', '64k', '--no-report']);
  expect(opts).toMatchObject({ quick: true, duration: 3, samples: 5, sizes: ['64k'], report: false });
  expect(parseMatrixArgs(['--samples', '5', '--matrix', quick]).samples).toBe(5);
});

test('a file with only some keys leaves the rest to the defaults (and --quick)', () => {
  const some = file('some.json', { quick: true, vus: 64, cells: ['edge:1k:keepalive'] });
  const opts = parseMatrixArgs(['--matrix', some]);
  expect(opts).toMatchObject({ quick: true, duration: 3, samples: 1, vus: 64, sizes: ['1k', '4k'] });
  expect(planCells(opts).map((c) => c.name)).toEqual(['edge:1k:keepalive']);
});

test.each([
  [{ durationSeconds: 0 }, /\.json: durationSeconds must be a positive integer, got 0/],
  [{ sizes: ['1k', '2m'] }, /\.json: sizes: page size must be between 1 byte and 1 MiB, not '2m'/],
  [{ cells: ['tls:1k:close'] }, /\.json: cells: 'tls:1k:close': termination must be \* or one of/],
  [
    { crossCheck: 'maybe' },
    /\.json: crossCheck must be true or false \(also yes\/no, on\/off, 1\/0\), got "maybe"/,
  ],
  [
    { colour: 'blue' },
    /\.json: unknown key colour \(known: quick, cells, sizes, tlsSessions, protocols, durationSeconds/,
  ],
])('a bad value in the file is refused, naming the file and the key: %j', (content, message) => {
  const bad = file('durations.json', { ...recorded, ...content });
  expect(() => parseMatrixArgs(['--matrix', bad])).toThrow(UsageError);
  expect(() => parseMatrixArgs(['--matrix', bad])).toThrow(message);
  expect(() => parseMatrixArgs(['--matrix', bad])).toThrow(bad);
});

test('a missing or unreadable file is named', () => {
  const missing = path.join(dir, 'nope.json');
  expect(() => parseMatrixArgs(['--matrix', missing])).toThrow(`--matrix ${missing}: no such file`);
  const text = path.join(dir, 'text.json');
  fs.writeFileSync(text, 'not json');
  expect(() => parseMatrixArgs(['--matrix', text])).toThrow(new RegExp(`--matrix ${text}: .*JSON`));
  expect(() => parseMatrixArgs(['--matrix', file('list.json', [1])])).toThrow(
    /not a results.json nor its options/,
  );
});

test('--quick on the command line shortens a replayed run too', () => {
  const replayed = parseMatrixArgs(['--matrix', file('long.json', recorded), '--quick']);
  expect(replayed).toMatchObject({ quick: true, duration: 3, samples: 1, warmup: 1, cooldown: 0.5 });
  // ...but not what the command line itself sets.
  expect(
    parseMatrixArgs(['--matrix', file('long2.json', recorded), '--quick', '--samples', '2']).samples,
  ).toBe(2);
});

test("an open-model run's derived VU ceiling is derived again, not replayed as if given", () => {
  const open = { ...recorded, executor: 'constant-arrival-rate', rate: 500, maxVus: 50 };
  const replayed = parseMatrixArgs(['--matrix', file('open.json', open), '--rate', '5000']);
  expect(loadModel(replayed).maxVus).toBe(500);
  // A ceiling that was given is kept.
  const given = parseMatrixArgs(['--matrix', file('given.json', { ...open, maxVus: 64 })]);
  expect(given.maxVus).toBe(64);
});

test('--max-vus is refused without --rate, and below --vus', () => {
  expect(() => parseMatrixArgs(['--max-vus', '64'])).toThrow(
    /--max-vus needs --rate: a VU ceiling is for the open model/,
  );
  expect(() => parseMatrixArgs(['--rate', '100', '--vus', '32', '--max-vus', '8'])).toThrow(
    /--max-vus \(8\) must be at least --vus \(32\)/,
  );
});
