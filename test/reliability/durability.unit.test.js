'use strict';
// The durability verdict per fsync policy (lib/reliability/durability.js), on made-up observations.
const durability = require('../../lib/reliability/durability');

describe('the durability verdict, per fsync policy', () => {
  const observed = (fsync, lost) => ({
    cases: [
      {
        name: `appendfsync ${fsync}`,
        figures: { fsync },
        dataLost: { acknowledged: 1000, unknown: 0, ids: lost.count ? ['a'] : [], ...lost },
      },
    ],
  });
  test('always allows nothing; everysec the last second; no promises nothing; no AOF fails', () => {
    expect(durability.verdict(observed('always', { count: 0, windowMs: 0 })).pass).toBe(true);
    expect(durability.verdict(observed('always', { count: 1, windowMs: 5 })).pass).toBe(false);
    expect(durability.verdict(observed('everysec', { count: 3, windowMs: 900 })).pass).toBe(true);
    const late = durability.verdict(observed('everysec', { count: 3, windowMs: 1500 }));
    expect(late.pass).toBe(false);
    expect(late.reasons[0]).toMatch(
      /oldest acknowledged 1500 ms before the crash; the policy allows 1000 ms/,
    );
    expect(durability.verdict(observed('no', { count: 50, windowMs: 20000 })).pass).toBe(true);
    expect(durability.verdict(observed(null, { count: 0, windowMs: 0 })).pass).toBe(false);
  });
});
