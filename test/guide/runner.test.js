'use strict';
// The guide runner's one run per Jest run of a command that starts its own labs (route-scale's,
// which test/route-scale/ asserts on too), shown with a command that counts its runs; and where
// the pages' commands write.
const fs = require('node:fs');
const path = require('node:path');
const { ExerciseLab, runOwnLabsOnce } = require('./runner');

test('a lab=none command runs once per Jest run; a page adopts its results', async () => {
  const text = 'echo run >> results/runs && wc -l < results/runs';
  const first = await runOwnLabsOnce(text, {});
  const again = await runOwnLabsOnce(text, {});
  expect({ code: first.code, stdout: first.stdout.trim() }).toEqual({ code: 0, stdout: '1' });
  expect(again).toEqual(first);
  expect(fs.readFileSync(path.join(first.resultsDir, 'runs'), 'utf8')).toBe('run\n');
  // Another command (or another quick form) is another run.
  const other = await runOwnLabsOnce(text, { quick: '--quick' });
  expect(other.resultsDir).not.toBe(first.resultsDir);

  const lab = new ExerciseLab();
  try {
    expect(lab.adopt(first)).toEqual({
      text,
      ran: first.ran,
      code: 0,
      stdout: first.stdout,
      stderr: '',
      ms: first.ms,
    });
    expect(fs.readFileSync(path.join(lab.resultsDir, 'runs'), 'utf8')).toBe('run\n');
  } finally {
    await lab.end();
  }
});

test("a page's command that names no --out writes to the runner's results, not the checkout's", async () => {
  const text = `node -e "process.stdout.write(require('./lib/core/paths').resultsDir())"`;
  const run = await runOwnLabsOnce(text, {});
  expect({ code: run.code, dir: run.stdout }).toEqual({ code: 0, dir: run.resultsDir });
  const lab = new ExerciseLab();
  try {
    expect(lab.env().ROUTER_LAB_RESULTS).toBe(lab.resultsDir);
  } finally {
    await lab.end();
  }
});
