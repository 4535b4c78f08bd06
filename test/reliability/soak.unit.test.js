'use strict';
// The soak's verdict and its windows (lib/reliability/soak.js), on made-up observations.
const soak = require('../../lib/reliability/soak');

describe('the soak verdict and windows', () => {
  const observed = ({ failed = 0, p99 = [5, 6], growthMb = 1 } = {}) => ({
    cases: [
      {
        name: 'edge:keepalive',
        errors: failed ? { 'HTTP 502': failed } : {},
        load: { requests: 1000, failed, droppedIterations: 0 },
        figures: { p99, rss: { router: { beforeMb: 20, afterMb: 20 + growthMb, growthMb, gone: false } } },
      },
    ],
  });
  test('errors and memory growth fail it; a drift is a note', () => {
    expect(soak.verdict(observed())).toMatchObject({ pass: true, notes: [] });
    expect(soak.verdict(observed({ failed: 2 })).reasons[0]).toMatch(
      /2 of 1000 requests failed \(2 HTTP 502\)/,
    );
    expect(soak.verdict(observed({ growthMb: 100 })).reasons[0]).toMatch(/router grew by 100 MB/);
    expect(soak.verdict(observed({ p99: [5, 30] })).notes[0]).toMatch(/p99 rose from 5 ms .* to 30 ms/);
  });
  test('a minute per window in long soaks, 10 s in short ones, always two at least', () => {
    expect([600, 120, 60, 20, 6].map(soak.windowSeconds)).toEqual([60, 10, 10, 10, 3]);
  });
});
