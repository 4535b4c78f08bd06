'use strict';
// The guide's command parser and the names check, on text: pure logic, no processes.
const {
  parseInfo,
  fencedBlocks,
  exerciseBlocks,
  blockCommands,
  simpleCommands,
  expandFor,
  npmRun,
  quickForm,
  relocate,
  needsOf,
} = require('../../lib/guide/exercise');
const {
  commandProblems,
  flagsFromHelp,
  scriptEntry,
  inlineCommands,
  relativeLinks,
} = require('../../lib/guide/names');

test('a fence info string: the exercise tag and its attributes', () => {
  expect(parseInfo('sh exercise quick="--quick --cells http:1k:keepalive" needs=cores:4')).toEqual({
    lang: 'sh',
    exercise: true,
    attrs: { quick: '--quick --cells http:1k:keepalive', needs: 'cores:4' },
  });
  expect(parseInfo('sh')).toEqual({ lang: 'sh', exercise: false, attrs: {} });
  expect(needsOf({ needs: 'cores:4,root' })).toEqual([
    { kind: 'cores', value: '4' },
    { kind: 'root', value: null },
  ]);
});

test('exercise blocks are the sh exercise fences, in order, with their lines', () => {
  const md =
    'text\n\n```sh exercise\nnpm run lab:up\n```\n\n```sh\nls\n```\n\n  ```sh exercise needs=root\n  sudo x\n  ```\n';
  expect(fencedBlocks(md).map((b) => b.line)).toEqual([3, 7, 11]);
  expect(exerciseBlocks(md).map((b) => b.text)).toEqual(['npm run lab:up', 'sudo x']);
  expect(() => fencedBlocks('```sh\nls\n')).toThrow(/unclosed code block opened on line 1/);
});

test('a block becomes logical commands: comments, continuations, loops, background', () => {
  const text = [
    'npm run lab:up   # comment',
    '# a whole comment line',
    'for t in 1 2; do',
    '  LAB_ROUTER_THREADS=$t npm run lab:up',
    "  npm run matrix -- --cells 'edge:1k:*' \\",
    '    --out results/t-$t',
    'done',
    'npm run matrix -- --duration 30 &',
    'wait',
  ].join('\n');
  expect(blockCommands(text)).toEqual([
    { text: 'npm run lab:up', background: false },
    {
      text: "for t in 1 2; do LAB_ROUTER_THREADS=$t npm run lab:up; npm run matrix -- --cells 'edge:1k:*' --out results/t-$t; done",
      background: false,
    },
    { text: 'npm run matrix -- --duration 30', background: true },
    { text: 'wait', background: false },
  ]);
  expect(() => blockCommands('for i in 1; do\necho')).toThrow(/unfinished command/);
});

test('simple commands: environment prefix, pipes and substitutions, quotes kept whole', () => {
  expect(simpleCommands("LAB_REPLICAS=3 LAB_X='a b' npm run lab:up && curl -s 'x|y' | grep -o z")).toEqual([
    { env: { LAB_REPLICAS: '3', LAB_X: 'a b' }, argv: ['npm', 'run', 'lab:up'] },
    { env: {}, argv: ['curl', '-s', 'x|y'] },
    { env: {}, argv: ['grep', '-o', 'z'] },
  ]);
  expect(simpleCommands('grep x /proc/$(cat .lab/pids/router.pid)/status').map((c) => c.argv[0])).toEqual([
    'grep',
    'cat',
  ]);
  expect(npmRun(['npm', 'run', 'sizing', '--', 'results/x', '--tps', '5000'])).toEqual({
    script: 'sizing',
    args: ['results/x', '--tps', '5000'],
  });
  // npm's own options before the script (-s inside $(…)).
  expect(npmRun(['npm', 'run', '-s', 'lab:status', '--', '--cluster-args'])).toEqual({
    script: 'lab:status',
    args: ['--cluster-args'],
  });
  expect(npmRun(['npm', 'run', '-s'])).toBeNull();
  expect(npmRun(['k6', 'run'])).toBeNull();
});

test('the quick form appends --quick (or the block’s own) to lab, matrix and reliability runs, a short DURATION to k6', () => {
  expect(quickForm("npm run matrix -- --cells 'http:1k:close' --out results/a")).toBe(
    "npm run matrix -- --cells 'http:1k:close' --out results/a --quick --warmup 0 --cooldown 0 --duration 2",
  );
  expect(quickForm('npm run lab')).toBe('npm run lab -- --quick --warmup 0 --cooldown 0 --duration 2');
  expect(
    quickForm('LAB_MAXCONN=50 npm run lab:up && npm run lab -- --vus 4', { quick: '--quick --cells x' }),
  ).toBe('LAB_MAXCONN=50 npm run lab:up && npm run lab -- --vus 4 --quick --cells x');
  expect(
    quickForm('SSL_CERT_FILE=.lab/certs/lab-ca.crt k6 run -e RATE=5000 -e DURATION=1m k6/data-service.js'),
  ).toBe(
    'SSL_CERT_FILE=.lab/certs/lab-ca.crt k6 run -e RATE=5000 -e DURATION=1m k6/data-service.js -e DURATION=3s',
  );
  expect(quickForm('npm run reliability -- --scenarios exhaustion')).toBe(
    'npm run reliability -- --scenarios exhaustion --quick',
  );
  expect(quickForm('npm run reliability', { quick: '--quick --exhaust-seconds 3' })).toBe(
    'npm run reliability -- --quick --exhaust-seconds 3',
  );
  expect(quickForm('npm run sizing -- results/a --tps 5000')).toBe('npm run sizing -- results/a --tps 5000');
});

test('relocation: .lab/ is LAB_DIR, results/ a temporary directory, default ports the lab’s', () => {
  expect(
    relocate(
      'grep x /proc/$(cat .lab/pids/router.pid)/status; curl https://h.localhost:9443/api --out results/a',
      {
        labDir: '/tmp/L',
        resultsDir: '/tmp/R',
        ports: { 9443: 40001 },
      },
    ),
  ).toBe(
    'grep x /proc/$(cat /tmp/L/pids/router.pid)/status; curl https://h.localhost:40001/api --out /tmp/R/a',
  );
});

test('names: what does not exist is named; what exists passes', () => {
  const known = {
    scripts: new Set(['matrix', 'lab:up']),
    flags: (s) => (s === 'matrix' ? new Set(['--cells', '--out', '--quick']) : null),
    knobs: new Set(['LAB_MAXCONN']),
    k6Variables: () => new Set(['RATE']),
    exists: (f) => f === 'k6/data-service.js',
  };
  expect(
    commandProblems("LAB_MAXCONN=5 npm run lab:up && npm run matrix -- --cells 'x' --out results/a", known),
  ).toEqual([]);
  expect(
    commandProblems(
      'LAB_MAXCON=5 npm run lab:upp; npm run matrix -- --cell x; k6 run -e RAT=1 k6/data-service.js k6/gone.js',
      known,
    ),
  ).toEqual([
    'LAB_MAXCON is not a lab knob',
    'npm run lab:upp: there is no such npm script',
    'npm run matrix: --cell is not one of its options',
    'k6 run k6/data-service.js: it reads no variable RAT',
    'k6/gone.js does not exist',
  ]);
  expect([
    ...flagsFromHelp('Usage: x\n\nOptions:\n  --tps N   the target\n  -h, --help   this text\n'),
  ]).toEqual(['--tps', '--help']);
  expect(scriptEntry('node bin/setup.js --for service && node data-service/bench/service.js')).toBe(
    'data-service/bench/service.js',
  );
  expect(inlineCommands('run `npm run sizing -- x` then\n```sh\nnpm run lab\n```\n')).toEqual([
    'npm run sizing -- x',
  ]);
  expect(relativeLinks('[a](lab.md#knobs) [b](https://x) [c](#here) [d](../README.md)')).toEqual([
    'lab.md',
    '../README.md',
  ]);
});

test('relocation takes results/ and a bare results directory, not a name that ends in results', () => {
  expect(
    relocate('mkdir -p results; ls results/x myresults/y', { labDir: '/tmp/L', resultsDir: '/tmp/R' }),
  ).toBe('mkdir -p /tmp/R; ls /tmp/R/x myresults/y');
});

test('a loop around lab:up unrolls into its commands, the variable replaced', () => {
  expect(
    expandFor(
      'for t in 1 4; do LAB_ROUTER_THREADS=$t npm run lab:up; npm run matrix -- --out results/t-${t}; npm run lab:down; done',
    ),
  ).toEqual([
    'LAB_ROUTER_THREADS=1 npm run lab:up',
    'npm run matrix -- --out results/t-1',
    'npm run lab:down',
    'LAB_ROUTER_THREADS=4 npm run lab:up',
    'npm run matrix -- --out results/t-4',
    'npm run lab:down',
  ]);
  expect(expandFor('npm run lab:up')).toBeNull();
  expect(() => expandFor('for i in $(seq 3); do echo $i; done')).toThrow(/made at run time/);
});
