'use strict';
// Which planned cells the matrix runs, and with what (pure: no lab). Resumed close cells need wrk,
// which has no open model; every other cell passes through to k6.
const { placeCells } = require('../../lib/matrix/run');

const cell = (termination, tlsSession = null) => ({
  name: `${termination}:1k:close${tlsSession ? `:${tlsSession}` : ''}`,
  termination,
  pageSize: 1024,
  connection: 'close',
  tlsSession,
});
const target = { mode: 'lab', routes: {} };

test('--rate skips the resumed cells, each recorded with why; the rest run with k6', async () => {
  const cells = [cell('http'), cell('edge', 'full'), cell('edge', 'resumed'), cell('reencrypt', 'resumed')];
  const { runnable, skipped } = await placeCells(cells, { target, opts: { rate: 200 }, wrk: null });
  expect(runnable).toEqual([{ cell: cells[0] }, { cell: cells[1] }]);
  expect(skipped).toEqual(
    ['edge:1k:close:resumed', 'reencrypt:1k:close:resumed'].map((name) => ({
      name,
      reason: 'open model (--rate 200): resumed sessions need wrk, which has no open model',
    })),
  );
});

test('a resumed cell without wrk stops the run before it starts, saying how to get wrk', async () => {
  const cells = [cell('edge', 'full'), cell('edge', 'resumed')];
  await expect(placeCells(cells, { target, opts: {}, wrk: null })).rejects.toThrow(
    "edge:1k:close:resumed: resumed TLS sessions need wrk (k6 cannot resume): run 'npm run setup -- --for lab', or pass --tls-session full",
  );
  // Without resumed cells wrk is not needed.
  const { runnable, skipped } = await placeCells([cells[0]], { target, opts: {}, wrk: null });
  expect([runnable, skipped]).toEqual([[{ cell: cells[0] }], []]);
});
